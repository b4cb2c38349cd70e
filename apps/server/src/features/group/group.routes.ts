import { AliasCreateInput, AliasList, Created, Empty, envelope, GroupCreateInput, GroupUpdateInput, IdInput, MailGroup, MailGroupList } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { companyAdmin } from '../admin/admin-guard.js';
import type { PeopleService } from '../people/people.service.js';
import type { GroupService } from './group.service.js';

/** Issue 17: aliases and mail groups in the company console. */
export function groupRoutes(app: App, people: PeopleService, groups: GroupService): void {
  const tags = ['admin'];
  const view = (req: Parameters<typeof companyAdmin>[0]) => people.view(companyAdmin(req));
  app.get('/h5/admin/aliases/list', { schema: { tags, response: { 200: envelope(AliasList) } } }, async (req) => ok(await groups.aliases(await view(req))));
  app.post('/h5/admin/aliases/create', { schema: { tags, body: AliasCreateInput, response: { 200: envelope(Created) } } }, async (req) =>
    ok(await groups.createAlias(await view(req), req.body.address, Number(req.body.userId))));
  app.post('/h5/admin/aliases/delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await groups.deleteAlias(await view(req), Number(req.body.id));
    return ok({});
  });
  app.get('/h5/admin/groups/list', { schema: { tags, response: { 200: envelope(MailGroupList) } } }, async (req) => ok(await groups.groups(await view(req))));
  app.post('/h5/admin/groups/create', { schema: { tags, body: GroupCreateInput, response: { 200: envelope(MailGroup) } } }, async (req) =>
    ok(await groups.createGroup(await view(req), req.body)));
  app.post('/h5/admin/groups/update', { schema: { tags, body: GroupUpdateInput, response: { 200: envelope(MailGroup) } } }, async (req) =>
    ok(await groups.updateGroup(await view(req), req.body)));
  app.post('/h5/admin/groups/delete', { schema: { tags, body: IdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await groups.deleteGroup(await view(req), Number(req.body.id));
    return ok({});
  });
}
