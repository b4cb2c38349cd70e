import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Mail, MailList, MailSummary, SendResult, Settings } from '@mailwing/shared';
import { Threader } from '../src/features/conversation/threader.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 14, scope 2: threading at delivery, conversation rows, the stacked read page's
// mails, and actions on whole conversations. Real SMTP, real database.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s?.stop());

const convList = async (token: string, mid = '0', view = 'conv') => (await s.get<MailList>('/h5/mail/list', { mid, page: 1, size: 50, view }, token)).data;
const mailList = async (token: string, mid = '0') => (await s.get<MailList>('/h5/mail/list', { mid, page: 1, size: 100 }, token)).data;
const bySubject = (list: MailSummary[], subject: string) => list.filter((m) => m.subject.replace(/^(re|fwd?|回复|转发|答复)[:：]\s*/i, '') === subject);
const day = 86_400_000;

async function convOf(id: string): Promise<number> {
  return (await s.rt.services.db.selectFrom('messages').select('conv_id').where('id', '=', Number(id)).executeTakeFirstOrThrow()).conv_id;
}

/** The kept rows and counters must equal a recount from the messages themselves. */
async function expectCountersExact(): Promise<void> {
  const db = s.rt.services.db;
  const drift = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (
      (SELECT user_id, conv_id, folder_mid, n, unread, last_id FROM conversation_folders
       EXCEPT
       SELECT user_id, conv_id, folder_mid, count(*)::int, (count(*) FILTER (WHERE NOT seen))::int, (array_agg(id ORDER BY received_at DESC, id DESC))[1]
       FROM messages GROUP BY 1, 2, 3)
      UNION ALL
      (SELECT user_id, conv_id, folder_mid, count(*)::int, (count(*) FILTER (WHERE NOT seen))::int, (array_agg(id ORDER BY received_at DESC, id DESC))[1]
       FROM messages GROUP BY 1, 2, 3
       EXCEPT
       SELECT user_id, conv_id, folder_mid, n, unread, last_id FROM conversation_folders)
    ) d`.execute(db);
  expect(drift.rows[0]!.n).toBe(0);
  const folders = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM folders f
    WHERE f.convs <> (SELECT count(*) FROM conversation_folders c WHERE c.user_id = f.user_id AND c.folder_mid = f.mid)`.execute(db);
  expect(folders.rows[0]!.n).toBe(0);
}

describe('threading at delivery', () => {
  it('a reply chain over SMTP and compose is one conversation: one row in the Inbox, counted whole, stacked in order', async () => {
    const now = Date.now();
    await s.send({ from: 'Carol <carol@outside.example>', to: 'alice@demo.test', subject: 'Budget 2027', text: 'First numbers.', messageId: '<b1@outside.example>', date: new Date(now - 3 * 3600_000) });
    const first = bySubject((await mailList(alice)).list, 'Budget 2027')[0]!;
    // Alice answers from the app: her Sent copy carries In-Reply-To and joins.
    const reply = (await s.post<SendResult>('/h5/write/send', { to: 'carol@outside.example', subject: 'Re: Budget 2027', text: 'Looks fine.', replyTo: first.id }, alice)).data;
    const sentMail = (await s.get<Mail>('/h5/read/index', { mid: reply.id }, alice)).data;
    await s.send({
      from: 'Carol <carol@outside.example>', to: 'alice@demo.test', subject: 'RE: Budget 2027', text: 'Thanks, final attached.',
      messageId: '<b3@outside.example>', inReplyTo: sentMail.messageId, references: ['<b1@outside.example>', sentMail.messageId],
    });
    await s.send({ from: 'Carol <carol@outside.example>', to: 'alice@demo.test', subject: '回复：Budget 2027', text: 'One more thing.', messageId: '<b4@outside.example>', inReplyTo: '<b3@outside.example>' });

    const mails = bySubject((await mailList(alice)).list, 'Budget 2027');
    expect(mails).toHaveLength(3);
    expect(new Set(await Promise.all([...mails.map((m) => convOf(m.id)), convOf(reply.id)])).size).toBe(1);

    const rows = bySubject((await convList(alice)).list, 'Budget 2027');
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.conv).toMatchObject({ count: 4, unread: 3 });
    expect(row.read).toBe(false);
    expect(row.snippet).toContain('One more thing');
    expect(row.conv!.participants.map((p) => p.address)).toEqual(['carol@outside.example', 'alice@demo.test']);
    // In Sent the same conversation shows by alice's reply, still counted whole.
    const inSent = bySubject((await convList(alice, '1')).list, 'Budget 2027');
    expect(inSent).toHaveLength(1);
    expect(inSent[0]!.id).toBe(reply.id);
    expect(inSent[0]!.conv!.count).toBe(4);

    const conv = (await s.get<Conversation>('/h5/read/conversation', { mid: row.id }, alice)).data;
    expect(conv.id).toBe(row.conv!.id);
    expect(conv.list.map((m) => m.snippet.slice(0, 12))).toEqual(['First number', 'Looks fine.', 'Thanks, fina', 'One more thi']);
    const read = (await s.get<Mail>('/h5/read/index', { mid: row.id }, alice)).data;
    expect(read.thread).toHaveLength(3);
    await expectCountersExact();
  });

  it('a broken References still threads: a missing parent by an older link, a wholly unknown one by subject and people', async () => {
    await s.send({ from: 'dan@outside.example', to: 'alice@demo.test', subject: 'Server move', text: 'Plan A', messageId: '<s1@outside.example>' });
    await s.send({ from: 'dan@outside.example', to: 'alice@demo.test', subject: 'Re: Server move', text: 'Plan B', messageId: '<s2@outside.example>', inReplyTo: '<s1@outside.example>', references: ['<s1@outside.example>'] });
    // The parent (s2) never reached this mailbox under that id, and there is no In-Reply-To: s1 in References still links.
    await s.send({ from: 'dan@outside.example', to: 'alice@demo.test', subject: 'Re: Server move', text: 'Plan C', messageId: '<s3@outside.example>', references: ['<s1@outside.example>', '<lost@elsewhere.example>'] });
    // Mangled by a client: nothing it names is known; same subject, same two people, same week.
    await s.send({ from: 'dan@outside.example', to: 'alice@demo.test', subject: 'Re: Server move', text: 'Plan D', messageId: '<s4@outside.example>', inReplyTo: '<garbled@nowhere>', references: ['<garbled@nowhere>'] });
    const mails = bySubject((await mailList(alice)).list, 'Server move');
    expect(mails).toHaveLength(4);
    expect(new Set(await Promise.all(mails.map((m) => convOf(m.id)))).size).toBe(1);
    expect(bySubject((await convList(alice)).list, 'Server move')[0]!.conv!.count).toBe(4);
  });

  it('joins by subject alone only between the same people within the window', async () => {
    const now = Date.now();
    await s.send({ from: 'erin@outside.example', to: 'alice@demo.test', subject: 'Weekly sync', text: 'Agenda', date: new Date(now - 2 * day) });
    // A header-less reply (some phone clients): same subject after the prefix, same pair.
    await s.send({ from: 'alice-phone@outside.example', to: 'erin@outside.example', cc: 'alice@demo.test', subject: 'Re: Weekly sync', text: 'other people' });
    await s.send({ from: 'erin@outside.example', to: 'alice@demo.test', subject: '答复: Weekly sync', text: 'Minutes', date: new Date(now - day) });
    // Same people, same subject, but five weeks earlier: a different meeting.
    await s.send({ from: 'erin@outside.example', to: 'alice@demo.test', subject: 'Weekly sync', text: 'Old agenda', date: new Date(now - 35 * day) });
    const mails = bySubject((await mailList(alice)).list, 'Weekly sync');
    expect(mails).toHaveLength(4);
    const conv = new Map(await Promise.all(mails.map(async (m) => [m.snippet, await convOf(m.id)] as const)));
    expect(conv.get('Agenda')).toBe(conv.get('Minutes'));
    expect(conv.get('other people')).not.toBe(conv.get('Agenda'));
    expect(conv.get('Old agenda')).not.toBe(conv.get('Agenda'));
    expect(bySubject((await convList(alice)).list, 'Weekly sync')).toHaveLength(3);
  });

  it('keeps two unrelated mails with the same subject apart', async () => {
    await s.send({ from: 'frank@outside.example', to: 'alice@demo.test', subject: 'Invoice', text: 'From Frank' });
    await s.send({ from: 'grace@other.example', to: 'alice@demo.test', subject: 'Invoice', text: 'From Grace' });
    const rows = bySubject((await convList(alice)).list, 'Invoice');
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.conv!.count === 1)).toBe(true);
  });

  it('threads per mailbox: one mail to two users is two conversations, each joined by its own replies', async () => {
    await s.send({ from: 'hank@outside.example', to: ['alice@demo.test', 'bob@demo.test'], subject: 'Offsite', text: 'Where?', messageId: '<o1@outside.example>' });
    await s.send({ from: 'hank@outside.example', to: 'bob@demo.test', subject: 'Re: Offsite', text: 'Bob only', messageId: '<o2@outside.example>', inReplyTo: '<o1@outside.example>' });
    const a = bySubject((await convList(alice)).list, 'Offsite')[0]!;
    const b = bySubject((await convList(bob)).list, 'Offsite')[0]!;
    expect(a.conv!.id).not.toBe(b.conv!.id);
    expect(a.conv!.count).toBe(1);
    expect(b.conv!.count).toBe(2);
    // Someone else's conversation is unknown here, for reading and for every action.
    expect((await s.post('/h5/conv/read', { ids: b.conv!.id, read: 1 }, alice))).toMatchObject({ code: 404, reason: 'conversation.not_found' });
    expect((await s.post('/h5/conv/delete', { ids: `${a.conv!.id},${b.conv!.id}` }, alice)).code).toBe(404);
    expect((await s.get('/h5/read/conversation', { mid: b.id }, alice)).code).toBe(404);
    expect(bySubject((await convList(bob)).list, 'Offsite')[0]!.conv!.count).toBe(2);
  });
});

describe('conversation actions', () => {
  it('read, star, move and delete take the whole conversation; sent copies stay in Sent on a move', async () => {
    await s.send({ from: 'ivy@outside.example', to: 'bob@demo.test', subject: 'Hiring', text: 'CVs', messageId: '<h1@outside.example>' });
    const first = bySubject((await mailList(bob)).list, 'Hiring')[0]!;
    await s.post('/h5/write/send', { to: 'ivy@outside.example', subject: 'Re: Hiring', text: 'Got them', replyTo: first.id }, bob);
    await s.send({ from: 'ivy@outside.example', to: 'bob@demo.test', subject: 'Re: Hiring', text: 'More CVs', messageId: '<h3@outside.example>', inReplyTo: '<h1@outside.example>' });
    const row = bySubject((await convList(bob)).list, 'Hiring')[0]!;
    const id = row.conv!.id;
    expect(row.conv!.unread).toBe(2);

    expect((await s.post('/h5/conv/read', { ids: id, read: 1 }, bob)).data).toEqual({ changed: 2 });
    expect(bySubject((await convList(bob)).list, 'Hiring')[0]!.read).toBe(true);
    await s.post('/h5/conv/star', { ids: id, star: 1 }, bob);
    expect(bySubject((await mailList(bob)).list, 'Hiring').every((m) => m.star)).toBe(true);
    // A single mail's action still works on its own.
    await s.post('/h5/mailop/read', { ids: first.id, read: 0 }, bob);
    expect(bySubject((await convList(bob)).list, 'Hiring')[0]).toMatchObject({ read: false, conv: { unread: 1 } });

    expect((await s.post('/h5/conv/move', { ids: id, to: '6' }, bob)).data).toEqual({ changed: 2 });
    expect(bySubject((await convList(bob)).list, 'Hiring')).toHaveLength(0);
    expect(bySubject((await convList(bob, '6')).list, 'Hiring')[0]!.conv!.count).toBe(3);
    expect(bySubject((await convList(bob, '1')).list, 'Hiring')).toHaveLength(1);

    expect((await s.post('/h5/conv/delete', { ids: id }, bob)).data).toEqual({ changed: 3 });
    expect(bySubject((await convList(bob, '6')).list, 'Hiring')).toHaveLength(0);
    expect(bySubject((await convList(bob, '1')).list, 'Hiring')).toHaveLength(0);
    const trash = bySubject((await convList(bob, '4')).list, 'Hiring');
    expect(trash[0]!.conv!.count).toBe(3);
    // Purge is only for Deleted and Spam, then frees the conversation for good.
    expect((await s.post('/h5/conv/purge', { ids: id, from: '0' }, bob)).code).toBe(422);
    expect((await s.post('/h5/conv/purge', { ids: id, from: '4' }, bob)).data).toEqual({ changed: 3 });
    expect(bySubject((await convList(bob, '4')).list, 'Hiring')).toHaveLength(0);
    await expectCountersExact();
  });

  it('lists mails, not conversations, without view, with a filter, in Drafts, and with view=auto when the setting is off', async () => {
    const plain = await mailList(alice);
    expect(plain.conversations).toBeUndefined();
    expect(plain.list.every((m) => m.conv === undefined)).toBe(true);
    const auto = await convList(alice, '0', 'auto');
    expect(auto.conversations).toBe(true);
    expect(auto.total).toBeLessThan(plain.total);
    const filtered = (await s.get<MailList>('/h5/mail/list', { mid: '0', page: 1, size: 50, view: 'conv', filter: 'unread' }, alice)).data;
    expect(filtered.list.every((m) => m.conv === undefined)).toBe(true);

    expect((await s.get<Settings>('/h5/setting/index', {}, alice)).data.conversationView).toBe(true);
    expect((await s.post<Settings>('/h5/setting/app-setting', { conversationView: 0 }, alice)).data.conversationView).toBe(false);
    const off = await convList(alice, '0', 'auto');
    expect(off.conversations).toBe(false);
    expect(off.total).toBe(plain.total);
    await s.post('/h5/setting/app-setting', { conversationView: 1 }, alice);
    expect((await convList(alice, '0', 'auto')).conversations).toBe(true);
    expect((await s.get('/h5/mail/list', { mid: '999', page: 1, size: 20, view: 'conv' }, alice)).code).toBe(404);
  });
});

describe('the threader (the rules the migration applies to existing mail)', () => {
  const base = { inReplyTo: '', references: '', subjectKey: 'plan', peopleKey: 'ab' };
  it('follows links first, the newest reference first, and joins by subject only near in time', () => {
    const t = new Threader(1);
    const at = new Date('2026-01-10T00:00:00Z');
    const add = (m: Parameters<Threader['assign']>[0], own: number) => {
      const conv = t.assign(m) ?? own;
      t.remember(m, conv);
      return conv;
    };
    expect(add({ ...base, messageId: '<1@x>', date: at }, 1)).toBe(1);
    expect(add({ ...base, messageId: '<2@x>', subjectKey: 'other', inReplyTo: '<1@x>', date: at }, 2)).toBe(1);
    expect(add({ ...base, messageId: '<3@x>', subjectKey: 'unrelated', peopleKey: 'cd', date: at }, 3)).toBe(3);
    expect(add({ ...base, messageId: '<4@x>', subjectKey: 'zz', references: '<1@x> <3@x>', date: at }, 4)).toBe(3);
    expect(add({ ...base, messageId: '<5@x>', date: new Date(at.getTime() + 3 * day) }, 5)).toBe(1);
    expect(add({ ...base, messageId: '<6@x>', peopleKey: 'ac', date: at }, 6)).toBe(6);
    expect(add({ ...base, messageId: '<7@x>', date: new Date(at.getTime() + 30 * day) }, 7)).toBe(7);
    expect(add({ ...base, messageId: '<8@x>', subjectKey: '', date: at }, 8)).toBe(8);
  });
});
