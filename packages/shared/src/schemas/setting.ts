import { z } from 'zod';
import { Email } from './auth.js';
import { flag } from './common.js';

// Issue 7, part 2: settings, push, several mailboxes, WeChat login.
// Route contract (all under /h5; "auth" = needs a session token):
//   auth GET  setting/index          → Settings
//   auth POST setting/app-setting    AppSettingInput → Settings        (any subset of the fields)
//   auth GET  setting/modifylanguage LanguageInput → Settings          (spec §7 says GET)
//   auth POST setting/nickname       NicknameInput → Settings
//   auth POST setting/avatar         multipart `file` (png/jpeg/gif/webp, ≤ 2 MB) → Settings
//        GET  setting/avatar-image?email=…  the image (public: avatars show in lists)
//   auth GET  setting/push-key       → PushKey                         (the VAPID public key)
//   auth POST setting/bind-push-id   PushSubscriptionInput → Empty     (tied to this session)
//   auth POST setting/unbind-push-id { endpoint } → Empty
//   auth POST login/bind             LoginInput → LoginResult          (log in to another mailbox and bind it)
//   auth GET  login/select           → BoundMailbox[]                  (this mailbox first, then the bound ones)
//   auth GET  login/app-email-select EmailInput → SessionResult        (a fresh token for a bound mailbox)
//   auth POST login/unbind           EmailInput → Empty                (refused for the current mailbox, spec §5)
//        GET  login/wx               → WechatAuthorize                  (the OAuth authorize URL)
//        GET  login/app              → WechatAppInfo
//        POST login/wxcode           WechatCodeInput → LoginResult      (a challenge when second verification is on)
//   auth POST login/app-bind?code=   → Empty                           (bind the WeChat account to this mailbox)
// With WeChat not configured every WeChat route answers 403 "cannot operate without binding WeChat".

export const SettingMessages = {
  nicknameRequired: 'Nickname is required',
  avatarFailed: 'avatar upload failed',
  avatarType: 'must be a PNG, JPEG, GIF or WebP image',
  avatarSize: 'must be at most 2 MB',
  wechatUnbound: 'cannot operate without binding WeChat',
  unbindCurrent: 'The currently logged-in account cannot be unbound',
  timeZoneUnknown: 'is not a known time zone',
  pushScheme: 'must be an http(s) URL',
} as const;

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM');

export const NotifySettings = z.object({
  newMail: z.boolean(),
  quietEnabled: z.boolean(),
  quietStart: z.string(),
  quietEnd: z.string(),
  timeZone: z.string(),
  /** Folder ids whose new mail notifies. Spam ("3") never does. */
  folders: z.array(z.string()),
});
export type NotifySettings = z.infer<typeof NotifySettings>;

export const Settings = z.object({
  email: z.string(),
  nickname: z.string(),
  /** URL of the avatar image, or null for the default. */
  avatar: z.string().nullable(),
  company: z.string(),
  role: z.enum(['user', 'admin']),
  quotaBytes: z.number(),
  usedBytes: z.number(),
  language: z.enum(['zh', 'en']).nullable(),
  notify: NotifySettings,
  /** Second verification is on. */
  secverify: z.boolean(),
  wechatBound: z.boolean(),
  /** Lists show one row per conversation (issue 14); on unless turned off. Always sent; optional for older servers. */
  conversationView: z.boolean().optional(),
});
export type Settings = z.infer<typeof Settings>;

const folderList = z.preprocess((v) => {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  return v;
}, z.array(z.string().regex(/^\d{1,15}$/, 'is not a valid folder id')).max(200));

export const AppSettingInput = z.object({
  newMail: flag.optional(),
  quietEnabled: flag.optional(),
  quietStart: hhmm.optional(),
  quietEnd: hhmm.optional(),
  timeZone: z.string().max(64).refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, SettingMessages.timeZoneUnknown).optional(),
  folders: folderList.optional(),
  conversationView: flag.optional(),
});
export type AppSettingInput = z.infer<typeof AppSettingInput>;

export const LanguageInput = z.object({ language: z.enum(['zh', 'en'], { error: 'must be zh or en' }) });
export type LanguageInput = z.infer<typeof LanguageInput>;

export const NicknameInput = z.object({
  nickname: z.string({ error: SettingMessages.nicknameRequired }).trim().min(1, SettingMessages.nicknameRequired).max(40, 'at most 40 characters'),
});
export type NicknameInput = z.infer<typeof NicknameInput>;

export const PushKey = z.object({ publicKey: z.string() });
export type PushKey = z.infer<typeof PushKey>;

/** A PushSubscription as the browser gives it (toJSON()), flattened for a form body. */
export const PushSubscriptionInput = z.object({
  endpoint: z.string().url('is not a valid URL').max(2000).refine((u) => u.startsWith('https://') || u.startsWith('http://'), SettingMessages.pushScheme),
  p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'is not a P-256 public key'),
  auth: z.string().regex(/^[A-Za-z0-9_-]{16,24}={0,2}$/, 'is not an auth secret'),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

export const EndpointInput = z.object({ endpoint: z.string().max(2000) });

/** What a push carries (encrypted, RFC 8291); the service worker shows it and opens `url` on tap. */
export const PushPayload = z.object({
  title: z.string(),
  body: z.string(),
  /** The mail id, for the read page's mid parameter. */
  mid: z.string(),
  /** The mailbox the mail is in, so the app switches to it first. */
  email: z.string(),
  url: z.string(),
});
export type PushPayload = z.infer<typeof PushPayload>;

export const EmailInput = z.object({ email: Email });
export type EmailInput = z.infer<typeof EmailInput>;

export const BoundMailbox = z.object({
  email: z.string(),
  /** Spec §3: the part of the address before the at-sign. */
  name: z.string(),
  nickname: z.string(),
  unread: z.number().int(),
  current: z.boolean(),
});
export type BoundMailbox = z.infer<typeof BoundMailbox>;

export const WechatAuthorize = z.object({ url: z.string(), state: z.string() });
export type WechatAuthorize = z.infer<typeof WechatAuthorize>;

export const WechatAppInfo = z.object({ appid: z.string() });
export type WechatAppInfo = z.infer<typeof WechatAppInfo>;

export const WechatCodeInput = z.object({ code: z.string({ error: 'code is empty' }).trim().min(1, 'code is empty').max(200), state: z.string().max(200).optional() });
export type WechatCodeInput = z.infer<typeof WechatCodeInput>;
