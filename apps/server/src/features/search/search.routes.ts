import { envelope, SearchQuery, SearchResult } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { SearchService } from './search.service.js';

export function searchRoutes(app: App, search: SearchService): void {
  app.get('/h5/search/mail', { schema: { tags: ['search'], querystring: SearchQuery, response: { 200: envelope(SearchResult) } } }, async (req) =>
    ok(await search.search(caller(req).userId, req.query)));
}
