import { sql } from 'kysely';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseItip } from '../src/features/calendar/itip.js';
import { startDemo, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

// Invitations by mail over real SMTP on loopback: REQUEST to a colleague (local delivery)
// and to an outside address (the outbound queue to the MX stand-in), REPLY from outside
// (our SMTP receiver) and from the app, SEQUENCE updates and CANCEL.

let s: TestServer;
let alice: string;
let bob: string;
let mx: MxStandIn;
const CAROL = 'carol@partner.example';

beforeAll(async () => {
  mx = await startMxStandIn();
  ({ s, alice, bob } = await startDemo({
    workers: true,
    delivery: { relay: `smtp://127.0.0.1:${mx.port}`, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 10 },
  }));
  // The shared machine is slow to start a server under load; the limit is for the start only.
}, 400_000);
afterAll(async () => {
  await s?.stop();
  await mx?.close();
});

type Person = { email: string; partstat: string };
type Ev = { id: string; start: string; attendees: Person[]; organizer: string | null; partstat: string | null };
type Invite = { method: string; sequence: number; title: string; start: string; eventId: string | null; answer: string | null; outdated: boolean };
type Mail = { id: string; subject: string };

const inbox = async (token: string, title: string) =>
  (await s.get<{ list: Mail[] }>('/h5/mail/list', { mid: '0', page: 1, size: 100 }, token)).data.list.filter((m) => m.subject.includes(title));
const event = async (token: string, id: string) => (await s.get<Ev>('/h5/calendar/event', { id }, token)).data;
const partstatOf = async (id: string, email: string) => (await event(alice, id)).attendees.find((a) => a.email === email)?.partstat;

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An outside calendar's REPLY, as Google or Outlook would send it: From the attendee, to the organiser, through our MX. */
async function outsideReply(from: string, attendee: string, uid: string, sequence: number, partstat: string) {
  const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Partner//EN', 'METHOD:REPLY', 'BEGIN:VEVENT', `UID:${uid}`, `SEQUENCE:${sequence}`,
    'DTSTAMP:20270101T000000Z', 'ORGANIZER:mailto:alice@demo.test', `ATTENDEE;PARTSTAT=${partstat}:mailto:${attendee}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
  await s.send({ from, to: 'alice@demo.test', subject: `${partstat}: Design review`, text: `${partstat}`, icalEvent: { method: 'REPLY', content: ics } });
}

describe('calendar invitations by mail', () => {
  let eventId = '';
  let uid = '';

  it('sends a REQUEST with a readable part and a text/calendar; method=REQUEST part to a colleague and an outside address', async () => {
    const ev = await s.post<Ev>('/h5/calendar/create', {
      title: 'Design review', start: '2027-06-01T10:00', end: '2027-06-01T11:00', tz: 'Asia/Shanghai', attendees: `bob@demo.test, ${CAROL}`,
    }, alice);
    expect(ev.code).toBe(200);
    eventId = ev.data.id;
    expect(ev.data.attendees.map((a) => [a.email, a.partstat])).toEqual([['bob@demo.test', 'NEEDS-ACTION'], [CAROL, 'NEEDS-ACTION']]);

    const [out] = await mx.waitFor(1);
    expect(out!.to).toEqual([CAROL]);
    const raw = out!.raw.toString();
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
    expect(raw).toMatch(/DKIM-Signature:/);
    const mail = await simpleParser(out!.raw);
    const part = mail.attachments.find((a) => a.contentType === 'text/calendar');
    const itip = parseItip(part!.content.toString(), 'UTC')!;
    expect(itip).toMatchObject({ method: 'REQUEST', sequence: 0, organizer: { email: 'alice@demo.test' } });
    expect(itip.attendees.map((a) => a.email).sort()).toEqual(['bob@demo.test', CAROL]);
    expect(itip.master).toMatchObject({ title: 'Design review', start: '2027-06-01T10:00:00', tz: 'Asia/Shanghai' });
    uid = itip.uid;

    expect(await until(() => inbox(bob, 'Design review'), (l) => l.length === 1)).toHaveLength(1);
    // The text/calendar alternative is the invitation card's, not a file named "attachment-1"; invite.ics stays a file.
    const [got] = await inbox(bob, 'Design review');
    const read = await s.get<{ attachments: { name: string; contentType: string; inline: boolean }[] }>('/h5/read/index', { mid: got!.id }, bob);
    const files = read.data.attachments.filter((a) => !a.inline);
    expect(files.map((a) => a.name)).toEqual(['invite.ics']);
    expect(read.data.attachments.filter((a) => a.inline).map((a) => a.contentType)).toEqual(['text/calendar']);
  });

  it('an outside REPLY through our SMTP receiver sets that attendee\'s answer; a REPLY from someone else does not', async () => {
    await outsideReply('mallory@partner.example', CAROL, uid, 0, 'DECLINED');
    await outsideReply(CAROL, CAROL, uid, 0, 'ACCEPTED');
    expect(await until(() => partstatOf(eventId, CAROL), (p) => p === 'ACCEPTED')).toBe('ACCEPTED');
    // Both mails were read (the queue is empty), and the forged one changed nothing.
    expect(await until(() => s.rt.services.invites.tick(), (n) => n === 0)).toBe(0);
    expect(await partstatOf(eventId, CAROL)).toBe('ACCEPTED');
  });

  it('a colleague answers from the read page: the event is in their calendar and the organiser sees the answer', async () => {
    const [mail] = await inbox(bob, 'Design review');
    const before = await s.get<Invite>('/h5/calendar/invite', { id: mail!.id, tz: 'Asia/Shanghai' }, bob);
    expect(before.data).toMatchObject({ method: 'REQUEST', title: 'Design review', start: '2027-06-01T10:00', eventId: null, answer: null, outdated: false });
    // Someone else's mail id is not found.
    expect((await s.get('/h5/calendar/invite', { id: mail!.id }, alice)).code).toBe(404);

    const after = await s.post<Invite>('/h5/calendar/invite/answer', { id: mail!.id, answer: 'accepted', tz: 'Asia/Shanghai' }, bob);
    expect(after.data).toMatchObject({ answer: 'ACCEPTED' });
    const copy = await event(bob, after.data.eventId!);
    expect(copy).toMatchObject({ start: '2027-06-01T10:00', organizer: 'alice@demo.test', partstat: 'ACCEPTED' });
    const range = await s.get<{ list: { id: string }[] }>('/h5/calendar/range', { from: Date.parse('2027-06-01T00:00Z') / 1000, to: Date.parse('2027-06-02T00:00Z') / 1000 }, bob);
    expect(range.data.list.map((o) => o.id)).toContain(after.data.eventId);
    // The REPLY went by local delivery into alice's Inbox; the queue applies it.
    expect(await until(() => partstatOf(eventId, 'bob@demo.test'), (p) => p === 'ACCEPTED')).toBe('ACCEPTED');
    expect(await inbox(alice, 'Design review')).not.toHaveLength(0);
  });

  it('an update goes out with a higher SEQUENCE: the copy follows, a new time asks again, the old mail is outdated', async () => {
    const up = await s.post<Ev>('/h5/calendar/update', {
      id: eventId, title: 'Design review', start: '2027-06-01T14:00', end: '2027-06-01T15:00', tz: 'Asia/Shanghai', attendees: `bob@demo.test, ${CAROL}`,
    }, alice);
    expect(up.code).toBe(200);
    // A new time: everyone's answer is asked for again (RFC 5546 §2.1.5).
    expect(up.data.attendees.map((a) => a.partstat)).toEqual(['NEEDS-ACTION', 'NEEDS-ACTION']);
    const [, second] = await mx.waitFor(2);
    expect(parseItip((await simpleParser(second!.raw)).attachments[0]!.content.toString(), 'UTC')).toMatchObject({ method: 'REQUEST', sequence: 1, master: { start: '2027-06-01T14:00:00' } });

    const mails = (await until(() => inbox(bob, 'Design review'), (l) => l.length === 2)).sort((a, b) => Number(a.id) - Number(b.id));
    // The update is applied to bob's copy by a job after delivery, and replaces the copy (a new id):
    // follow the invitation's link until it leads to the moved event.
    const copy = await until(async () => {
      const invite = (await s.get<Invite>('/h5/calendar/invite', { id: mails.at(-1)!.id }, bob)).data;
      return invite?.eventId ? event(bob, invite.eventId) : undefined;
    }, (e) => e?.start === '2027-06-01T14:00');
    expect(copy).toMatchObject({ start: '2027-06-01T14:00', partstat: 'NEEDS-ACTION' });
    const older = mails.find((m) => m.id !== mails.at(-1)!.id)!;
    expect((await s.get<Invite>('/h5/calendar/invite', { id: older.id }, bob)).data.outdated).toBe(true);
    const refused = await s.post<unknown>('/h5/calendar/invite/answer', { id: older.id, answer: 'accepted' }, bob) as { code: number; reason?: string };
    expect(refused).toMatchObject({ code: 422, reason: 'calendar.invite_outdated' });
    const newer = await s.post<Invite>('/h5/calendar/invite/answer', { id: mails.at(-1)!.id, answer: 'tentative' }, bob);
    expect(newer.data.answer).toBe('TENTATIVE');
    expect(await until(() => partstatOf(eventId, 'bob@demo.test'), (p) => p === 'TENTATIVE')).toBe('TENTATIVE');
  });

  it('removing an attendee and deleting the event send CANCEL; the colleague\'s copy goes', async () => {
    await s.post('/h5/calendar/update', { id: eventId, title: 'Design review', start: '2027-06-01T14:00', end: '2027-06-01T15:00', tz: 'Asia/Shanghai', attendees: 'bob@demo.test' }, alice);
    const got = await mx.waitFor(3);
    expect(parseItip((await simpleParser(got[2]!.raw)).attachments[0]!.content.toString(), 'UTC')).toMatchObject({ method: 'CANCEL', attendees: [{ email: CAROL }] });

    const bobMails = await inbox(bob, 'Design review');
    const copyId = (await s.get<Invite>('/h5/calendar/invite', { id: bobMails[0]!.id }, bob)).data.eventId!;
    expect((await s.post('/h5/calendar/delete', { id: eventId }, alice)).code).toBe(200);
    const gone = await until(() => s.get('/h5/calendar/event', { id: copyId }, bob), (r) => r.code === 404);
    expect(gone.code).toBe(404);
  });

  it('a declined invitation is not filed, and an attendee list with a bad address is refused with a reason', async () => {
    const bad = await s.post('/h5/calendar/create', { title: 'X', start: '2027-06-02T10:00', end: '2027-06-02T11:00', attendees: 'not-an-address' }, alice) as { code: number; reason?: string };
    expect(bad).toMatchObject({ code: 422, reason: 'calendar.attendee_invalid' });
    await s.post('/h5/calendar/create', { title: 'Offsite', start: '2027-06-03T10:00', end: '2027-06-03T11:00', attendees: 'bob@demo.test' }, alice);
    const [mail] = await until(() => inbox(bob, 'Offsite'), (l) => l.length === 1);
    const r = await s.post<Invite>('/h5/calendar/invite/answer', { id: mail!.id, answer: 'declined' }, bob);
    expect(r.data).toMatchObject({ eventId: null, answer: null });
  });

  it('an invitation is queued in the commit of the event: with no sender running it waits, and a restarted one sends it once', async () => {
    const db = s.rt.services.db;
    const runner = s.rt.services.inviteRunner;
    const outbox = () => sql<{ method: string; recipients: string[] }>`SELECT method, recipients FROM cal_itip_out ORDER BY id`.execute(db).then((r) => r.rows);
    // Nothing sends: as after a crash right after the event's commit.
    await runner.stop();
    const sentBefore = mx.received.length;
    let started = false;
    try {
      const ev = await s.post<Ev>('/h5/calendar/create', { title: 'Crash review', start: '2027-07-01T10:00', end: '2027-07-01T11:00', tz: 'Asia/Shanghai', attendees: `bob@demo.test, ${CAROL}` }, alice);
      expect(ev.code).toBe(200);
      expect(await outbox()).toEqual([{ method: 'REQUEST', recipients: ['bob@demo.test', CAROL] }]);
      expect(await inbox(bob, 'Crash review')).toHaveLength(0);
      expect(mx.received.length).toBe(sentBefore);
      runner.start();
      started = true;
      expect(await until(() => inbox(bob, 'Crash review'), (l) => l.length === 1)).toHaveLength(1);
      const got = await mx.waitFor(sentBefore + 1);
      expect(got.slice(sentBefore).map((m) => m.to)).toEqual([[CAROL]]);
      expect(await until(outbox, (rows) => rows.length === 0)).toEqual([]);
      // Another round sends nothing again.
      await s.rt.services.invites.tick();
      expect(await inbox(bob, 'Crash review')).toHaveLength(1);
      expect(mx.received.length).toBe(sentBefore + 1);
    } finally {
      if (!started) runner.start();
    }
  });
});
