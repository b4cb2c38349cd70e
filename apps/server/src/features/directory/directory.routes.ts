import { DepartmentTree, envelope, Member, MemberEditInput, MemberIdQuery, MemberList, MemberQuery } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { DirectoryService } from './directory.service.js';

export function directoryRoutes(app: App, directory: DirectoryService): void {
  const tags = ['directory'];
  app.get('/h5/directory/departments', { schema: { tags, response: { 200: envelope(DepartmentTree) } } }, async (req) => ok(await directory.departments(caller(req))));
  app.get('/h5/directory/members', { schema: { tags, querystring: MemberQuery, response: { 200: envelope(MemberList) } } }, async (req) =>
    ok(await directory.members(caller(req), req.query)));
  app.get('/h5/directory/member', { schema: { tags, querystring: MemberIdQuery, response: { 200: envelope(Member) } } }, async (req) =>
    ok(await directory.member(caller(req), req.query.id)));
  app.post('/h5/directory/member-edit', { schema: { tags, body: MemberEditInput, response: { 200: envelope(Member) } } }, async (req) =>
    ok(await directory.edit(caller(req), req.body)));
}
