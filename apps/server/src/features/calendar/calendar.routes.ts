import { CalendarEvent, CreateEventInput, FeedResult, IcsImportInput, IcsImportResult, DeleteEventInput, Empty, envelope, EventIdQuery, OccurrenceList, RangeQuery, UpdateEventInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { z } from 'zod';
import type { CalendarIcsService } from './calendar-ics.service.js';
import type { CalendarService } from './calendar.service.js';

export function calendarRoutes(app: App, cal: CalendarService, ics: CalendarIcsService): void {
  const tags = ['calendar'];
  app.get('/h5/calendar/range', { schema: { tags, querystring: RangeQuery, response: { 200: envelope(OccurrenceList) } } }, async (req) =>
    ok({ list: await cal.occurrences(caller(req).userId, req.query.from, req.query.to) }));
  app.get('/h5/calendar/event', { schema: { tags, querystring: EventIdQuery, response: { 200: envelope(CalendarEvent) } } }, async (req) =>
    ok(await cal.get(caller(req).userId, req.query.id)));
  app.post('/h5/calendar/create', { schema: { tags, body: CreateEventInput, response: { 200: envelope(CalendarEvent) } } }, async (req) =>
    ok(await cal.create(caller(req).userId, req.body)));
  app.post('/h5/calendar/update', { schema: { tags, body: UpdateEventInput, response: { 200: envelope(CalendarEvent) } } }, async (req) => {
    const { id, scope, occurrence, ...fields } = req.body;
    return ok(await cal.update(caller(req).userId, id, fields, scope, occurrence));
  });
  app.post('/h5/calendar/delete', { schema: { tags, body: DeleteEventInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await cal.remove(caller(req).userId, req.body.id, req.body.scope, req.body.occurrence);
    return ok({});
  });

  app.get('/h5/calendar/export', { schema: { tags } }, async (req, reply) =>
    reply.type('text/calendar; charset=utf-8').header('content-disposition', 'attachment; filename="calendar.ics"').send(await ics.export(caller(req).userId, caller(req).email)));
  app.post('/h5/calendar/import', { schema: { tags, body: IcsImportInput, response: { 200: envelope(IcsImportResult) } } }, async (req) =>
    ok(await ics.import(caller(req).userId, req.body.ics, req.body.tz)));
  app.post('/h5/calendar/feed', { schema: { tags, response: { 200: envelope(FeedResult) } } }, async (req) =>
    ok({ key: await ics.rotateFeed(caller(req).userId), path: '/h5/calendar/feed.ics' }));
  app.post('/h5/calendar/feed-revoke', { schema: { tags, response: { 200: envelope(Empty) } } }, async (req) => {
    await ics.revokeFeed(caller(req).userId);
    return ok({});
  });
  // Read by calendar apps, which carry no session: the key in the URL is the whole credential.
  app.get('/h5/calendar/feed.ics', { config: { public: true }, schema: { tags, querystring: z.object({ key: z.string().max(100) }) } }, async (req, reply) =>
    reply.type('text/calendar; charset=utf-8').send(await ics.feed(req.query.key)));
}
