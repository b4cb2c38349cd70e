import { z } from 'zod';
import { AppSettingInput, AVATAR_MAX_BYTES, Email, envelope, LanguageInput, NicknameInput, SettingMessages, Settings } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { readUpload } from '../../http/multipart.js';
import { caller, type App } from '../../http/types.js';
import { avatarVersion, SettingService } from './setting.service.js';
import { userContentHeaders } from '../../http/user-content.js';

const AvatarQuery = z.object({ email: Email, v: z.string().max(64).optional() });

export function settingRoutes(app: App, settings: SettingService): void {
  const tags = ['setting'];
  const result = { response: { 200: envelope(Settings) } };

  app.get('/h5/setting/index', { schema: { tags, ...result } }, async (req) => ok(await settings.get(caller(req).userId)));

  app.post('/h5/setting/app-setting', { schema: { tags, body: AppSettingInput, ...result } }, async (req) =>
    ok(await settings.update(caller(req).userId, req.body)));

  // Spec §7 lists this call as a GET.
  app.get('/h5/setting/modifylanguage', { schema: { tags, querystring: LanguageInput, ...result } }, async (req) =>
    ok(await settings.setLanguage(caller(req).userId, req.query.language)));

  app.post('/h5/setting/nickname', { schema: { tags, body: NicknameInput, ...result } }, async (req) =>
    ok(await settings.setNickname(caller(req).userId, req.body.nickname)));

  app.post('/h5/setting/avatar', { schema: { tags, consumes: ['multipart/form-data'], ...result } }, async (req) => {
    // One byte over the limit is enough to know it is too large; reading stops there.
    const { data } = await readUpload(req, { maxBytes: AVATAR_MAX_BYTES + 1, tooLarge: () => SettingService.tooLarge(), prefix: SettingMessages.avatarFailed });
    return ok(await settings.setAvatar(caller(req).userId, data));
  });

  // Public: avatars show beside mail and contacts, in <img> tags that carry no token.
  app.get('/h5/setting/avatar-image', { config: { public: true }, schema: { tags, querystring: AvatarQuery } }, async (req, reply) => {
    const img = await settings.avatarImage(req.query.email);
    // A URL with the current version never changes; without it the image may change at any time.
    const cache = req.query.v === avatarVersion(img.hash) ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
    return userContentHeaders(reply).header('Content-Type', img.contentType).header('Cache-Control', cache)
      .header('ETag', `"${avatarVersion(img.hash)}"`).header('Content-Disposition', 'inline').send(img.body);
  });
}
