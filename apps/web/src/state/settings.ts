import { useEffect } from 'react';
import type { Settings } from '@mailwing/shared';
import { loadSettings } from '../api/account';
import { getLanguage, setLanguage } from '../i18n';
import { sessionStore, useSession } from './session';
import { createStore, useStore } from './store';

// The current mailbox's settings (GET setting/index), shared by the Settings
// tab and the pages behind it. Kept in memory only, per session token.

interface SettingsState {
  settings: Settings | null;
  /** The token they were loaded for; another mailbox starts over. */
  owner: string;
}

export const settingsStore = createStore<SettingsState>({ settings: null, owner: '' });

let inFlight: { owner: string; done: Promise<boolean> } | null = null;
// The session whose language has been applied: once per session (start-up,
// login, switch), so a reload cannot undo a choice just made on this device.
let languageOf = '';

/** Keeps what a change answered with (the calls that change settings return them whole). */
// Bumped by every save, so a load that started before a save cannot bring back older values.
let saves = 0;

export function putSettings(settings: Settings): void {
  saves += 1;
  settingsStore.set({ settings, owner: sessionStore.get().token });
}

/**
 * Reloads the settings of the current mailbox; false when they could not be. The first time for a session,
 * the account's language (when it has chosen one) is applied: the choice
 * follows the account across devices.
 */
export function reloadSettings(): Promise<boolean> {
  const owner = sessionStore.get().token;
  if (!owner) return Promise.resolve(false);
  if (inFlight?.owner === owner) return inFlight.done;
  const savesBefore = saves;
  const done = loadSettings()
    .then((settings) => {
      if (sessionStore.get().token !== owner || saves !== savesBefore) return false;
      settingsStore.set({ settings, owner });
      if (languageOf !== owner) {
        languageOf = owner;
        if (settings.language && settings.language !== getLanguage()) setLanguage(settings.language);
      }
      return true;
    })
    .catch((error: unknown) => {
      console.warn('settings not loaded', error);
      return false;
    })
    .finally(() => {
      if (inFlight?.done === done) inFlight = null;
    });
  inFlight = { owner, done };
  return done;
}

/** The settings of the current mailbox, or null until they are loaded; loaded on first use. */
export function useSettings(): Settings | null {
  const settings = useStore(settingsStore, (s) => s.settings);
  const owner = useStore(settingsStore, (s) => s.owner);
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (token && owner !== token) void reloadSettings();
  }, [owner, token]);
  return token && owner === token ? settings : null;
}

let following = false;

/** Loads the settings whenever a session starts (start-up, login, switching mailbox), for the account's language. */
export function followAccount(): void {
  if (following) return;
  following = true;
  let token = sessionStore.get().token;
  void reloadSettings();
  sessionStore.subscribe(() => {
    const next = sessionStore.get().token;
    if (next === token) return;
    token = next;
    void reloadSettings();
  });
}
