import type { AppSettingInput, PushKey, PushSubscriptionInput, Settings } from '@mailwing/shared';
import { request, upload } from './request';

// The calls of the settings pages behind the Settings tab (issue 7), loaded
// with them; each change answers with the whole Settings. Loading them is in
// account.ts (first screen).

/** What setting/app-setting takes, encoded for the form body (folders comma-separated). */
export type AppSettingForm = Omit<AppSettingInput, 'folders'> & { folders?: string };

export const saveAppSetting = (data: AppSettingForm) => request<Settings>('/setting/app-setting', { method: 'POST', data });

/** Spec §7: a GET. No spinner: the language has already changed on screen. */
export const saveLanguage = (language: 'zh' | 'en') => request<Settings>('/setting/modifylanguage', { data: { language }, loading: false });

export const saveNickname = (nickname: string) => request<Settings>('/setting/nickname', { method: 'POST', data: { nickname } });

/** The page shows its progress and its failure (spec §8: avatar upload failed), so no toast here. */
export const uploadAvatar = (file: Blob, onProgress: (percent: number) => void) =>
  upload<Settings>('/setting/avatar', file, { onProgress, quiet: true });

/** The VAPID public key that subscriptions must be made with. */
export const pushKey = () => request<PushKey>('/setting/push-key', { loading: false });

export const bindPush = (subscription: PushSubscriptionInput, quiet = false) =>
  request<unknown>('/setting/bind-push-id', { method: 'POST', data: { ...subscription }, loading: !quiet, quiet });

export const unbindPush = (endpoint: string) =>
  request<unknown>('/setting/unbind-push-id', { method: 'POST', data: { endpoint }, loading: false, quiet: true });
