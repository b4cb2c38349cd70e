import { EndpointInput, Empty, envelope, PushKey, PushSubscriptionInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { PushService } from './push.service.js';

export function pushRoutes(app: App, push: PushService): void {
  const tags = ['setting'];

  // The VAPID public key the browser subscribes with (applicationServerKey).
  app.get('/h5/setting/push-key', { schema: { tags, response: { 200: envelope(PushKey) } } }, async () => ok({ publicKey: await push.publicKey() }));

  app.post('/h5/setting/bind-push-id', { schema: { tags, body: PushSubscriptionInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await push.bind(caller(req), req.body);
    return ok({});
  });

  // Unknown endpoints are fine: the device is unsubscribed either way.
  app.post('/h5/setting/unbind-push-id', { schema: { tags, body: EndpointInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await push.unbind(caller(req).userId, req.body.endpoint);
    return ok({});
  });
}
