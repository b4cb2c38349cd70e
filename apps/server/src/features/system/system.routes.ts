import { APP_VERSION, APP_VERSION_CODE, envelope, Version } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';

export function systemRoutes(app: App): void {
  app.get('/h5/uniapp/version', { config: { public: true }, schema: { tags: ['system'], response: { 200: envelope(Version) } } }, async () =>
    ok({ version: APP_VERSION, code: APP_VERSION_CODE, minCode: APP_VERSION_CODE, notes: '', url: '' }));

  app.get('/h5/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
