import { useEffect } from 'react';
import type { Tag } from '@mailwing/shared';
import { api } from '../api/endpoints';
import { session } from './session';
import { createStore, useStore } from './store';

// The user's tags, shared by the list rows (which get tag names and need
// colours), the filters, the read page and tag-list. Kept in memory only.

interface TagState {
  list: readonly Tag[];
  /** The session token the list was loaded for; another login starts over. */
  owner: string;
}

export const tagStore = createStore<TagState>({ list: [], owner: '' });

let inFlight: Promise<void> | null = null;

/** Reloads the tag list (counts change as mail is tagged). Failures keep the old list. */
export function reloadTags(): Promise<void> {
  const owner = session.get().token;
  inFlight ??= api.tags()
    .then((result) => tagStore.set({ list: result.list, owner }))
    .catch((error: unknown) => console.warn('tags not loaded', error))
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** Replaces the list after a change made here (create, rename, recolour, delete). */
export function setTags(list: readonly Tag[]): void {
  tagStore.set({ list, owner: session.get().token });
}

/** The tag list, loaded once per login when first needed. */
export function useTags(): readonly Tag[] {
  const list = useStore(tagStore, (s) => s.list);
  const owner = useStore(tagStore, (s) => s.owner);
  useEffect(() => {
    if (owner !== session.get().token) void reloadTags();
  }, [owner]);
  return owner === session.get().token ? list : NO_TAGS;
}

const NO_TAGS: readonly Tag[] = [];

/** Colour for a tag name; grey for a name we do not know (yet). */
export function tagColor(list: readonly Tag[], name: string): string {
  return list.find((t) => t.name === name)?.color ?? '#8A8F99';
}

/**
 * Text colour for a chip tinted with `color`: the colour itself when it is dark
 * enough to read on its own pale tint, else a darker shade of it (yellow).
 */
export function chipTextColor(color: string): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return '#5c6370';
  const n = parseInt(m[1]!, 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  const lin = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
  if (luminance < 0.3) return color;
  const dark = rgb.map((c) => Math.round(c * 0.55).toString(16).padStart(2, '0')).join('');
  return `#${dark}`;
}
