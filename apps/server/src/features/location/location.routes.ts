import { envelope, LocationConfig, LocationSearchQuery, PlaceList, StaticMapInput, UploadResult } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { LocationService } from './location.service.js';

export function locationRoutes(app: App, location: LocationService): void {
  const tags = ['location'];

  // Public: /open-location is where a mail's place link leads, and its reader may have no
  // session here. It says only where tiles come from.
  app.get('/h5/location/config', { config: { public: true }, schema: { tags, response: { 200: envelope(LocationConfig) } } }, async () => ok(location.config()));

  app.get('/h5/location/search', { schema: { tags, querystring: LocationSearchQuery, response: { 200: envelope(PlaceList) } } }, async (req) =>
    ok({ places: await location.search(req.query.q, req.query.lang) }));

  app.post('/h5/location/static-map', { schema: { tags, body: StaticMapInput, response: { 200: envelope(UploadResult) } } }, async (req) =>
    ok(await location.staticMap(caller(req).userId, req.body)));
}
