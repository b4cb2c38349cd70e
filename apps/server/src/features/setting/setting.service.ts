import { AVATAR_MAX_BYTES, SettingMessages, SystemFolder, type AppSettingInput, type Settings } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { invalid, notFound, unauthorized } from '../../errors.js';
import { sniffImage } from './avatar.js';
import * as repo from './setting.repository.js';

const SPAM = SystemFolder.Spam;
const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const toHhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const avatarFailed = (why: 'avatarType' | 'avatarSize') =>
  invalid('file', `${SettingMessages.avatarFailed}: ${SettingMessages[why]}`, why === 'avatarType' ? 'avatar.type' : 'avatar.size');

/** The URL part that changes with the image, so a new avatar is never hidden by a cached old one. */
export const avatarVersion = (hash: string) => hash.slice(0, 12);

/** A member's avatar URL: public, versioned by the image, so it caches for good. */
export const avatarPath = (email: string, hash: string) =>
  `/h5/setting/avatar-image?email=${encodeURIComponent(email.toLowerCase())}&v=${avatarVersion(hash)}`;

/** The settings page of one mailbox: profile, language, avatar and notification preferences. */
export class SettingService {
  constructor(private readonly db: Db, private readonly blobs: BlobService) {}

  async get(userId: number): Promise<Settings> {
    const [p, settings] = await Promise.all([repo.profile(this.db, userId), repo.settingsOf(this.db, [userId])]);
    if (!p) throw unauthorized();
    const s = settings.get(userId) ?? repo.DEFAULT_SETTINGS;
    return {
      email: p.email,
      nickname: p.name,
      avatar: p.avatar_hash ? avatarPath(p.email, p.avatar_hash) : null,
      company: p.company,
      role: p.role,
      quotaBytes: Number(p.quota_bytes),
      usedBytes: Number(p.used_bytes),
      language: p.language,
      notify: {
        newMail: s.notify_new_mail, quietEnabled: s.quiet_enabled, quietStart: toHhmm(s.quiet_start), quietEnd: toHhmm(s.quiet_end),
        timeZone: s.time_zone, folders: s.notify_folders,
      },
      secverify: p.secverify,
      wechatBound: Boolean(p.wechat_bound),
      conversationView: s.conversation_view,
    };
  }

  async update(userId: number, input: AppSettingInput): Promise<Settings> {
    const patch: Partial<repo.SettingsRow> = {};
    if (input.newMail !== undefined) patch.notify_new_mail = input.newMail;
    if (input.quietEnabled !== undefined) patch.quiet_enabled = input.quietEnabled;
    if (input.quietStart !== undefined) patch.quiet_start = toMinutes(input.quietStart);
    if (input.quietEnd !== undefined) patch.quiet_end = toMinutes(input.quietEnd);
    if (input.timeZone !== undefined) patch.time_zone = input.timeZone;
    if (input.conversationView !== undefined) patch.conversation_view = input.conversationView;
    if (input.folders !== undefined) {
      // Spam never notifies (issue 7), so it is not kept as if it could.
      const wanted = [...new Set(input.folders.map((f) => String(Number(f))))].filter((f) => f !== SPAM);
      const own = await repo.ownFolders(this.db, userId, wanted.map(Number));
      const unknown = wanted.find((f) => !own.has(Number(f)));
      if (unknown !== undefined) throw invalid('folders', `no such folder: ${unknown}`, 'folder.not_found');
      patch.notify_folders = wanted;
    }
    await repo.upsertSettings(this.db, userId, patch);
    return this.get(userId);
  }

  async setLanguage(userId: number, language: 'zh' | 'en'): Promise<Settings> {
    await repo.setLanguage(this.db, userId, language);
    return this.get(userId);
  }

  async setNickname(userId: number, nickname: string): Promise<Settings> {
    await repo.setName(this.db, userId, nickname);
    return this.get(userId);
  }

  /** Stores the image as a blob; the old one loses its reference in the same transaction. */
  async setAvatar(userId: number, data: Buffer): Promise<Settings> {
    if (data.length === 0 || !sniffImage(data)) throw avatarFailed('avatarType');
    if (data.length > AVATAR_MAX_BYTES) throw avatarFailed('avatarSize');
    const staged = await this.blobs.store.stage(data);
    try {
      await this.db.transaction().execute(async (trx) => {
        const old = await repo.lockAvatar(trx, userId);
        await this.blobs.reference(trx, [{ staged, n: 1 }]);
        await repo.setAvatar(trx, userId, staged.hash);
        if (old) await this.blobs.unreference(trx, new Map([[old, 1]]));
      });
    } finally {
      await this.blobs.store.release(staged);
    }
    return this.get(userId);
  }

  async avatarImage(email: string): Promise<{ hash: string; contentType: string; body: Buffer }> {
    const hash = await repo.avatarByEmail(this.db, email);
    if (!hash) throw notFound('Avatar');
    const body = await this.blobs.get(hash);
    return { hash, contentType: sniffImage(body) ?? 'application/octet-stream', body };
  }

  /** Multipart failures speak the avatar's language: a too-large file is the size message, not a transport error. */
  static tooLarge() {
    return avatarFailed('avatarSize');
  }
}
