import { CalendarEvent, CreateEventInput, DeleteEventInput, Empty, envelope, EventIdQuery, OccurrenceList, RangeQuery, UpdateEventInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { CalendarService } from './calendar.service.js';

export function calendarRoutes(app: App, cal: CalendarService): void {
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
}
