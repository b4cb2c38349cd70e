import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DryRun, MailList, Rule, RuleInput, RuleJob, SendResult, Tag } from '@mailwing/shared';
import { compile, evaluate, type RuleMail } from '../src/features/mail-rule/rule-evaluator.js';
import { parseMail } from '../src/features/message/mail-parse.js';
import { startDemo, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

let s: TestServer;
let alice: string;
let bob: string;
let mx: MxStandIn;

beforeAll(async () => {
  mx = await startMxStandIn();
  ({ s, alice, bob } = await startDemo({
    workers: true,
    delivery: { relay: `smtp://127.0.0.1:${mx.port}`, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 10 },
  }));
});
afterAll(async () => {
  await s.stop();
  await mx.close();
});

const json = <T>(route: string, body: unknown, token: string) => s.postJson<T>(route, body, token);

async function rule(token: string, input: Partial<RuleInput> & Pick<RuleInput, 'conditions' | 'actions'>): Promise<Rule> {
  const r = await json<Rule>('/h5/rule/create', { name: 'r', ...input }, token);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data;
}

async function clearRules(token: string): Promise<void> {
  for (const r of (await s.get<{ list: Rule[] }>('/h5/rule/list', {}, token)).data.list) await s.post('/h5/rule/delete', { id: r.id }, token);
}

async function list(token: string, mid: string): Promise<MailList['list']> {
  const r = await s.get<MailList>('/h5/mail/list', { mid, size: 100 }, token);
  expect(r.code).toBe(200);
  return r.data.list;
}

/** Runs rule jobs here until this one is done; the node's own worker may hold it meanwhile (SKIP LOCKED), so it is polled. */
async function finish(token: string, jobId: string): Promise<RuleJob> {
  for (let i = 0; i < 300; i++) {
    await s.rt.services.mailRules.runJobs();
    const job = (await s.get<RuleJob>('/h5/rule/job', { id: jobId }, token)).data;
    if (job.state === 'done') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

const find = async (token: string, mid: string, subject: string) => (await list(token, mid)).find((m) => m.subject === subject);

async function folder(token: string, name: string): Promise<string> {
  const r = await s.post<{ mid: string }>('/h5/mboxop/create-folder', { name }, token);
  expect(r.code).toBe(200);
  return r.data.mid;
}

const smtp = (subject: string, extra: Record<string, unknown> = {}) =>
  s.send({ from: 'Carol <carol@outside.test>', to: 'bob@demo.test', subject, text: 'hello there', ...extra });

beforeEach(async () => {
  await clearRules(bob);
  await clearRules(alice);
  mx.received.length = 0;
});

describe('the evaluator', () => {
  const mail = (over: Partial<RuleMail> = {}): RuleMail => ({
    from: { name: 'Carol Chen', address: 'carol@sales.example.com' }, recipients: ['bob@demo.test', 'team@demo.test'], subject: '季度报告 Q3 invoice',
    body: 'please pay the invoice', size: 20_000, hasAttach: true, headers: { 'x-mailer': 'Outlook 16' }, ...over,
  });
  const test = (conditions: RuleInput['conditions'], m = mail(), matchAll = true) =>
    compile({ id: 1, name: 'x', enabled: true, matchAll, conditions, actions: [{ type: 'read' }], stop: false }).test(m);

  it('tests each condition kind and operator', () => {
    expect(test([{ field: 'from', op: 'contains', value: 'carol chen' }])).toBe(true);
    expect(test([{ field: 'from', op: 'equals', value: 'CAROL@sales.example.com' }])).toBe(true);
    expect(test([{ field: 'from', op: 'domain', value: 'example.com' }])).toBe(true);
    expect(test([{ field: 'from', op: 'domain', value: 'ample.com' }])).toBe(false);
    expect(test([{ field: 'from', op: 'not_contains', value: 'carol' }])).toBe(false);
    expect(test([{ field: 'to', op: 'equals', value: 'team@demo.test' }])).toBe(true);
    expect(test([{ field: 'to', op: 'domain', value: 'other.test' }])).toBe(false);
    expect(test([{ field: 'subject', op: 'contains', value: '季度' }])).toBe(true);
    expect(test([{ field: 'subject', op: 'equals', value: 'invoice' }])).toBe(false);
    expect(test([{ field: 'body', op: 'contains', value: 'PAY' }])).toBe(true);
    expect(test([{ field: 'body', op: 'not_contains', value: 'refund' }])).toBe(true);
    expect(test([{ field: 'size', op: 'over', value: 10 }])).toBe(true);
    expect(test([{ field: 'size', op: 'under', value: 10 }])).toBe(false);
    expect(test([{ field: 'attachment', op: 'yes' }])).toBe(true);
    expect(test([{ field: 'attachment', op: 'no' }])).toBe(false);
    expect(test([{ field: 'header', name: 'x-mailer', op: 'contains', value: 'outlook' }])).toBe(true);
    expect(test([{ field: 'header', name: 'x-spam', op: 'exists', value: '' }])).toBe(false);
    expect(test([{ field: 'header', name: 'x-mailer', op: 'equals', value: 'outlook 16' }])).toBe(true);
  });

  it('combines conditions with all or any', () => {
    const both = [{ field: 'subject', op: 'contains', value: 'invoice' }, { field: 'body', op: 'contains', value: 'nothing like this' }] as RuleInput['conditions'];
    expect(test(both, mail(), true)).toBe(false);
    expect(test(both, mail(), false)).toBe(true);
  });

  it('runs rules in order: the first move wins, flags add up, stop ends the walk', () => {
    const r = (id: number, actions: RuleInput['actions'], stop = false) =>
      compile({ id, name: String(id), enabled: true, matchAll: true, conditions: [{ field: 'subject', op: 'contains', value: 'invoice' }], actions, stop });
    const o = evaluate([r(1, [{ type: 'move', folder: '100' }, { type: 'read' }]), r(2, [{ type: 'move', folder: '101' }, { type: 'star' }], true), r(3, [{ type: 'tag', tag: '7' }])], mail());
    expect(o).toMatchObject({ matched: [1, 2], folder: 100, read: true, star: true, tags: [] });
  });

  it('never forwards or rejects automatic, list or bulk mail', () => {
    const r = compile({ id: 1, name: 'f', enabled: true, matchAll: true, conditions: [{ field: 'subject', op: 'contains', value: 'invoice' }], actions: [{ type: 'forward', to: 'x@y.test' }, { type: 'reject', message: 'no' }, { type: 'star' }], stop: false });
    expect(evaluate([r], mail())).toMatchObject({ forwards: [{ to: 'x@y.test' }], reject: 'no' });
    for (const headers of [{ 'auto-submitted': 'auto-replied' }, { 'list-id': '<dev.lists.example.com>' }, { precedence: 'bulk' }, { precedence: 'junk' }] as Record<string, string>[]) {
      expect(evaluate([r], mail({ headers }))).toMatchObject({ forwards: [], reject: null, star: true });
    }
    expect(evaluate([r], mail({ headers: { 'auto-submitted': 'no' } })).forwards).toHaveLength(1);
  });
});

describe('the headers rules see', () => {
  it('keeps a bounded map of first values, without trace or signature headers', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `X-H${i}: ${'v'.repeat(i === 0 ? 2000 : 3)}`).join('\r\n');
    const raw = Buffer.from(`Received: from a\r\nDKIM-Signature: v=1\r\nList-Id: <dev.example.com>\r\nlist-id: <second>\r\nAuto-Submitted:\r\n  auto-replied\r\n__proto__: x\r\n${many}\r\nFrom: a@b.test\r\nSubject: s\r\n\r\nbody\r\n`);
    const { headers } = await parseMail(raw, 'a@b.test');
    expect(headers['list-id']).toBe('<dev.example.com>');
    expect(headers['auto-submitted']).toBe('auto-replied');
    expect(headers.received).toBeUndefined();
    expect(headers['dkim-signature']).toBeUndefined();
    expect(Object.hasOwn(headers, '__proto__')).toBe(false);
    expect(Object.keys(headers).length).toBeLessThanOrEqual(40);
    expect(headers['x-h0']).toHaveLength(500);
  });
});

describe('rules on SMTP delivery', () => {
  it('moves, tags, marks read and stars', async () => {
    const mid = await folder(bob, 'Invoices');
    const tag = (await s.post<Tag>('/h5/tag/create', { name: 'money' }, bob)).data;
    await rule(bob, { conditions: [{ field: 'subject', op: 'contains', value: 'invoice' }], actions: [{ type: 'move', folder: mid }, { type: 'tag', tag: tag.id }, { type: 'read' }, { type: 'star' }] });
    await smtp('Your invoice 42');
    await smtp('Lunch?');
    const got = await find(bob, mid, 'Your invoice 42');
    expect(got).toMatchObject({ read: true, star: true, tags: ['money'] });
    expect(await find(bob, '0', 'Lunch?')).toMatchObject({ read: false, star: false });
  });

  it('delete files the mail in Deleted; a header condition works', async () => {
    await rule(bob, { conditions: [{ field: 'header', name: 'x-campaign', op: 'exists', value: '' }], actions: [{ type: 'delete' }] });
    await smtp('Big sale', { headers: { 'X-Campaign': 'spring' } });
    expect(await find(bob, '4', 'Big sale')).toBeTruthy();
    expect(await find(bob, '0', 'Big sale')).toBeUndefined();
  });

  it('a disabled rule does nothing; a stopped walk skips later rules', async () => {
    await rule(bob, { enabled: false, conditions: [{ field: 'subject', op: 'contains', value: 'ping' }], actions: [{ type: 'delete' }] });
    await rule(bob, { stop: true, conditions: [{ field: 'subject', op: 'contains', value: 'ping' }], actions: [{ type: 'star' }] });
    await rule(bob, { conditions: [{ field: 'subject', op: 'contains', value: 'ping' }], actions: [{ type: 'read' }] });
    await smtp('ping 1');
    expect(await find(bob, '0', 'ping 1')).toMatchObject({ star: true, read: false });
  });

  it('reject answers 550 with the rule\'s message when every recipient rejects', async () => {
    await rule(bob, { conditions: [{ field: 'from', op: 'domain', value: 'outside.test' }], actions: [{ type: 'reject', message: 'Bob does not take mail from outside.test' }] });
    const err = await smtp('let me in').then(() => null, (e: unknown) => e as { responseCode?: number; response?: string });
    expect(err?.responseCode).toBe(550);
    expect(err?.response).toContain('Bob does not take mail from outside.test');
    // Mixed: alice takes it, bob's copy is dropped, the sender gets 250.
    const ok = await s.send({ from: 'carol@outside.test', to: ['bob@demo.test', 'alice@demo.test'], subject: 'for both', text: 'x' });
    expect(ok.response).toMatch(/^250/);
    expect(await find(alice, '0', 'for both')).toBeTruthy();
    expect(await find(bob, '0', 'for both')).toBeUndefined();
    // List mail is never rejected (loop guard): it is filed.
    await smtp('list post', { headers: { 'List-Id': '<dev.outside.test>' } });
    expect(await find(bob, '0', 'list post')).toBeTruthy();
  });

  it('forwards to an outside address through the queue, DKIM-signed and resent as-is, once', async () => {
    await rule(bob, { conditions: [{ field: 'subject', op: 'contains', value: 'forward me' }], actions: [{ type: 'forward', to: 'bob.home@elsewhere.test' }] });
    await smtp('please forward me');
    await smtp('forward me too', { headers: { 'Auto-Submitted': 'auto-generated' } });
    const [got] = await mx.waitFor(1);
    expect(got!.to).toEqual(['bob.home@elsewhere.test']);
    expect(got!.from).toBe('bob@demo.test');
    const head = got!.raw.toString('utf8');
    expect(head).toMatch(/^DKIM-Signature: .*d=demo\.test/m);
    expect(head).toMatch(/^Resent-From: bob@demo\.test/m);
    expect(head).toMatch(/^From: Carol <carol@outside\.test>/m);
    expect(await find(bob, '0', 'please forward me')).toBeTruthy();
    const effects = await s.rt.services.db.selectFrom('mail_rule_effects').selectAll().execute();
    expect(effects.filter((e) => e.kind === 'forward:bob.home@elsewhere.test')).toHaveLength(1);
  });

  it('the block list keeps its precedence; an allowed sender\'s mail never goes to Spam by a rule', async () => {
    const mid = await folder(bob, 'Carol');
    await s.post('/h5/contact/rule-add', { kind: 'block', pattern: 'spammer@outside.test' }, bob);
    await s.post('/h5/contact/rule-add', { kind: 'allow', pattern: 'friend@outside.test' }, bob);
    await rule(bob, { conditions: [{ field: 'subject', op: 'contains', value: 'hello from' }], actions: [{ type: 'move', folder: mid }] });
    await rule(bob, { conditions: [{ field: 'subject', op: 'contains', value: 'spamify' }], actions: [{ type: 'move', folder: '3' }] });
    await s.send({ from: 'spammer@outside.test', to: 'bob@demo.test', subject: 'hello from spammer', text: 'x' });
    await s.send({ from: 'friend@outside.test', to: 'bob@demo.test', subject: 'hello from friend', text: 'x' });
    await s.send({ from: 'friend@outside.test', to: 'bob@demo.test', subject: 'spamify friend', text: 'x' });
    expect(await find(bob, '3', 'hello from spammer')).toBeTruthy();
    expect(await find(bob, mid, 'hello from friend')).toBeTruthy();
    expect(await find(bob, '0', 'spamify friend')).toBeTruthy();
  });
});

describe('rules on local (compose) delivery', () => {
  it('files alice → bob by bob\'s rule, and a rejecting rule bounces back to alice with its message', async () => {
    const mid = await folder(bob, 'From Alice');
    await rule(bob, { conditions: [{ field: 'from', op: 'equals', value: 'alice@demo.test' }, { field: 'subject', op: 'not_contains', value: 'stop' }], actions: [{ type: 'move', folder: mid }, { type: 'star' }] });
    await rule(bob, { conditions: [{ field: 'subject', op: 'contains', value: 'stop' }], actions: [{ type: 'reject', message: 'Please use the ticket system' }] });
    const sent = await s.post<SendResult>('/h5/write/send', { to: 'bob@demo.test', subject: 'Project notes', html: '<p>notes</p>' }, alice);
    expect(sent.code).toBe(200);
    expect(await find(bob, mid, 'Project notes')).toMatchObject({ star: true });
    const refused = await s.post<SendResult>('/h5/write/send', { to: 'bob@demo.test', subject: 'please stop', html: '<p>x</p>' }, alice);
    expect(refused.code).toBe(200);
    expect((await list(bob, '0')).some((m) => m.subject === 'please stop')).toBe(false);
    const bounce = (await list(alice, '0')).find((m) => m.from.address.startsWith('mailer-daemon') || /undeliver|delivery/i.test(m.subject));
    expect(bounce).toBeTruthy();
    const read = await s.get<{ text: string; html: string }>('/h5/read/index', { mid: bounce!.id }, alice);
    expect(`${read.data.text}${read.data.html}`).toContain('Please use the ticket system');
  });
});

describe('dry run, jobs over stored mail, and ownership', () => {
  it('counts matches among the latest mail without saving anything', async () => {
    for (let i = 0; i < 3; i++) await smtp(`dry-run target ${i}`, { headers: { 'X-Kind': 'target' } });
    await smtp('dry-run other');
    const body = { name: 'dry', conditions: [{ field: 'subject', op: 'contains', value: 'dry-run target' }], actions: [{ type: 'read' }] };
    const r = await json<DryRun>('/h5/rule/dry-run', body, bob);
    expect(r.code).toBe(200);
    expect(r.data.matched).toBe(3);
    expect(r.data.of).toBeGreaterThanOrEqual(4);
    expect((await s.get<{ list: Rule[] }>('/h5/rule/list', {}, bob)).data.list).toHaveLength(0);
    const header = await json<DryRun>('/h5/rule/dry-run', { ...body, conditions: [{ field: 'header', name: 'x-kind', op: 'equals', value: 'TARGET' }] }, bob);
    expect(header.data.matched).toBe(3);
  });

  it('runs a rule over a folder as a job; running it twice acts once', async () => {
    const mid = await folder(bob, 'Archive job');
    for (let i = 0; i < 3; i++) await smtp(`old report ${i}`);
    const r = await rule(bob, { enabled: false, conditions: [{ field: 'subject', op: 'contains', value: 'old report' }], actions: [{ type: 'forward', to: 'archive@elsewhere.test' }, { type: 'star' }] });
    const started = await s.post<RuleJob>('/h5/rule/run', { id: r.id, mid: '0' }, bob);
    expect(started.code).toBe(200);
    const done = await finish(bob, started.data.id);
    expect(done).toMatchObject({ state: 'done', matched: 3 });
    expect(done.scanned).toBe(done.total);
    await mx.waitFor(3);
    const again = await s.post<RuleJob>('/h5/rule/run', { id: r.id, mid: '0' }, bob);
    expect(await finish(bob, again.data.id)).toMatchObject({ state: 'done', matched: 3 });
    // The second run's forwards would have been queued in its own transaction: none were.
    const queued = await s.rt.services.db.selectFrom('outbox').select('id').where('rcpt', '=', 'archive@elsewhere.test').execute();
    expect(queued).toHaveLength(3);
    expect((await list(bob, '0')).filter((m) => m.subject.startsWith('old report')).every((m) => m.star)).toBe(true);
    // A move job: the mail leaves the folder, so a second run finds nothing to move.
    const mover = await rule(bob, { enabled: false, conditions: [{ field: 'subject', op: 'contains', value: 'old report' }], actions: [{ type: 'move', folder: mid }] });
    await finish(bob, (await s.post<RuleJob>('/h5/rule/run', { id: mover.id, mid: '0' }, bob)).data.id);
    expect((await list(bob, mid)).filter((m) => m.subject.startsWith('old report'))).toHaveLength(3);
  });

  it('another user\'s rule ids are 404, and bad rules are refused with reasons', async () => {
    const mine = await rule(alice, { conditions: [{ field: 'subject', op: 'contains', value: 'x' }], actions: [{ type: 'read' }] });
    const body = { id: mine.id, name: 'hijack', conditions: [{ field: 'subject', op: 'contains', value: 'x' }], actions: [{ type: 'delete' }] };
    expect((await json('/h5/rule/update', body, bob)).code).toBe(404);
    expect((await s.post('/h5/rule/delete', { id: mine.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/rule/run', { id: mine.id, mid: '0' }, bob)).code).toBe(404);
    expect((await s.post('/h5/rule/reorder', { ids: mine.id }, bob)).code).toBe(404);
    const job = await s.post<RuleJob>('/h5/rule/run', { id: mine.id, mid: '0' }, alice);
    expect((await s.get('/h5/rule/job', { id: job.data.id }, bob)).code).toBe(404);
    expect((await s.get<{ list: Rule[] }>('/h5/rule/list', {}, alice)).data.list[0]).toMatchObject({ name: 'r', actions: [{ type: 'read' }] });
    const aliceFolder = await folder(alice, 'Mine only');
    const foreign = await json('/h5/rule/create', { name: 'y', conditions: [{ field: 'subject', op: 'contains', value: 'x' }], actions: [{ type: 'move', folder: aliceFolder }] }, bob);
    expect(foreign).toMatchObject({ code: 404, reason: 'folder.not_found' });
    expect(await json('/h5/rule/create', { name: 'y', conditions: [{ field: 'subject', op: 'contains', value: 'x' }], actions: [{ type: 'forward', to: 'bob@demo.test' }] }, bob)).toMatchObject({ code: 422, reason: 'rule.forward_self' });
    expect(await json('/h5/rule/create', { name: 'y', conditions: [], actions: [{ type: 'read' }] }, bob)).toMatchObject({ code: 422 });
    expect(await json('/h5/rule/create', { name: 'y', conditions: [{ field: 'nope', op: 'contains', value: 'x' }], actions: [{ type: 'read' }] }, bob)).toMatchObject({ code: 422 });
    expect(await json('/h5/rule/create', { name: 'y', conditions: [{ field: 'subject', op: 'contains', value: 'x\u0000' }], actions: [{ type: 'read' }] }, bob)).toMatchObject({ code: 422 });
    expect((await s.get<{ list: Rule[] }>('/h5/rule/list', {}, bob)).data.list).toHaveLength(0);
  });

  it('reorders rules', async () => {
    const a = await rule(bob, { name: 'a', conditions: [{ field: 'subject', op: 'contains', value: 'a' }], actions: [{ type: 'read' }] });
    const b = await rule(bob, { name: 'b', conditions: [{ field: 'subject', op: 'contains', value: 'b' }], actions: [{ type: 'read' }] });
    const r = await s.post<{ list: Rule[] }>('/h5/rule/reorder', { ids: `${b.id},${a.id}` }, bob);
    expect(r.data.list.map((x) => x.name)).toEqual(['b', 'a']);
  });
});
