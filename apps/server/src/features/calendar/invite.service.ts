import type { CalendarInvite, InviteAnswer } from '@mailwing/shared';
import type { Logger } from 'pino';
import { simpleParser } from 'mailparser';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { senderProfile } from '../compose/compose.repository.js';
import type { ParsedContent } from '../message/mail-parse.js';
import * as events from './calendar.repository.js';
import { rowOf } from './calendar-ics.service.js';
import { ANSWERS, organiserItip, parseItip, replyItip, type Itip, type Person } from './itip.js';
import type { ItipMailer } from './itip-mail.js';
import * as repo from './invite.repository.js';

export interface InviteDeps { db: Db; blobs: BlobService; mailer: ItipMailer; now?: () => Date; log?: Logger; /** Wakes the runner of `tick` (mail was queued to send). */ onQueued?: () => void }

/** A lease long enough for one job (reading one mail); a node that dies leaves it to run out. */
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 5;
const MAX_ATTENDEES = 50;
const CALENDAR_TYPES = new Set(['text/calendar', 'application/ics']);
const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/** "a@x.com, b@y.org" → checked, lowercased, unique addresses. */
export function attendeeList(text: string): string[] {
  const list = [...new Set(text.split(/[\s,;]+/).map((s) => s.trim().toLowerCase()).filter(Boolean))];
  const bad = list.find((a) => !EMAIL.test(a));
  if (bad) throw invalid('attendees', `${bad} is not an email address`, 'calendar.attendee_invalid');
  if (list.length > MAX_ATTENDEES) throw invalid('attendees', `At most ${MAX_ATTENDEES} attendees`, 'calendar.attendees_too_many');
  return list;
}

/**
 * Invitations by mail (iTIP over iMIP). The organiser's side: attendees are kept per
 * event, every change goes out as a REQUEST with a higher SEQUENCE, removal as a CANCEL.
 * The attendee's side: a received invitation is read from its mail, answered from the
 * app (which files the event and sends the REPLY). Received iTIP mail is queued in the
 * delivery's own commit (`queue`) and applied by `tick`: a REPLY sets the attendee's
 * answer on the organiser's event; a newer REQUEST or a CANCEL updates an answered copy.
 */
export class InviteService {
  private readonly now: () => Date;
  private queued = false;

  constructor(private readonly d: InviteDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** Attendees of an event (its series row), with their answers. */
  async attendees(eventIds: number[], db: Db = this.d.db): Promise<Map<number, Person[]>> {
    const out = new Map<number, Person[]>();
    for (const a of await repo.attendeesOf(db, eventIds)) out.set(a.event_id, [...(out.get(a.event_id) ?? []), a]);
    return out;
  }

  /**
   * After the organiser saved an event, in the transaction that saved it: the attendee list
   * becomes `emails` (undefined: unchanged), and everyone on it gets the event as it now is
   * (queued in this same transaction, sent by `tick`; call `sent` after the commit). A
   * changed time asks everyone again.
   */
  async organise(trx: Db, userId: number, uid: string, emails: string[] | undefined, opts: { first?: boolean; timesChanged?: boolean } = {}): Promise<void> {
    const master = (await repo.rowsOfUid(trx, userId, uid))[0];
    if (!master || master.organizer !== null || master.series_id !== null) return;
    const had = await repo.attendeesOf(trx, [master.id]);
    if (had.length === 0 && !emails?.length) return;
    const me = await senderProfile(trx, userId);
    const removed = emails ? await repo.setAttendees(trx, master.id, emails.filter((e) => e !== me.email.toLowerCase())) : [];
    if (opts.timesChanged) await repo.resetAnswers(trx, master.id);
    if (!opts.first) await repo.bumpSequence(trx, userId, uid);
    const rows = await repo.rowsOfUid(trx, userId, uid);
    const organiser = { email: me.email, name: me.name };
    const attendees = await repo.attendeesOf(trx, [master.id]);
    if (attendees.length > 0) await this.d.mailer.queue(trx, userId, attendees.map((a) => a.email), 'REQUEST', rows[0]!, organiserItip('REQUEST', rows, organiser, attendees));
    const gone = had.filter((a) => removed.includes(a.email));
    if (gone.length > 0) await this.d.mailer.queue(trx, userId, removed, 'CANCEL', rows[0]!, organiserItip('CANCEL', rows, organiser, gone));
  }

  /** Before the organiser deletes a whole event, in the transaction that deletes it: everyone invited gets a CANCEL. */
  async cancel(trx: Db, userId: number, uid: string): Promise<void> {
    const rows = await repo.rowsOfUid(trx, userId, uid);
    const master = rows[0];
    if (!master || master.organizer !== null) return;
    const attendees = await repo.attendeesOf(trx, [master.id]);
    if (attendees.length === 0) return;
    const me = await senderProfile(trx, userId);
    const bumped = rows.map((r) => ({ ...r, sequence: r.sequence + 1 }));
    await this.d.mailer.queue(trx, userId, attendees.map((a) => a.email), 'CANCEL', master, organiserItip('CANCEL', bumped, { email: me.email, name: me.name }, attendees));
  }

  /** After the commit of a change that may have queued mail: the runner sends it now rather than on its next round. */
  sent(): void {
    this.d.onQueued?.();
  }

  /** The invitation a mail of the user's carries, and where the user stands with it. */
  async inviteOf(userId: number, messageId: number, tz: string): Promise<CalendarInvite> {
    const { itip } = await this.readMail(userId, messageId, tz);
    if (!itip) throw notFound('Calendar invitation');
    const mine = (await repo.rowsOfUid(this.d.db, userId, itip.uid))[0];
    const own = mine !== undefined && mine.organizer === null;
    const m = itip.master;
    return {
      method: itip.method, uid: itip.uid, sequence: itip.sequence, title: m.title, description: m.description, allDay: m.allDay,
      start: m.allDay ? m.start.slice(0, 10) : m.start.slice(0, 16), end: m.allDay ? m.end.slice(0, 10) : m.end.slice(0, 16), tz: m.tz, rrule: m.rrule,
      organizer: itip.organizer, attendees: itip.attendees,
      eventId: mine && !own ? String(mine.id) : null,
      answer: mine && !own ? mine.partstat : null,
      outdated: mine !== undefined && !own && mine.sequence > itip.sequence,
      own,
    };
  }

  /** The user answers an invitation: accepted or tentative files the event (declined removes it), and the REPLY goes to the organiser. */
  async answer(userId: number, messageId: number, answer: InviteAnswer, tz: string): Promise<CalendarInvite> {
    const { itip } = await this.readMail(userId, messageId, tz);
    if (!itip || itip.method !== 'REQUEST') throw notFound('Calendar invitation');
    const me = await senderProfile(this.d.db, userId);
    const existing = await repo.rowsOfUid(this.d.db, userId, itip.uid);
    if (existing[0] && existing[0].organizer === null) throw forbidden('You organise this event', 'calendar.invite_own');
    if (existing[0] && existing[0].organizer !== itip.organizer.email) throw forbidden('Another organiser holds this event', 'calendar.invite_conflict');
    if (existing[0] && existing[0].sequence > itip.sequence) throw invalid('message', 'A newer version of this invitation arrived', 'calendar.invite_outdated');
    const partstat = ANSWERS[answer];
    // The answer filed and its REPLY queued in one commit: one never goes without the other.
    await this.d.db.transaction().execute(async (trx) => {
      await repo.deleteUid(trx, userId, itip.uid);
      if (answer !== 'declined') await this.file(trx, userId, itip, partstat);
      await this.d.mailer.queue(trx, userId, [itip.organizer.email], 'REPLY', { title: itip.master.title, start_local: itip.master.start, tz: itip.master.tz, answer },
        replyItip(itip, { email: me.email, name: me.name }, partstat, this.now()));
    });
    this.sent();
    return this.inviteOf(userId, messageId, tz);
  }

  /** Whether a delivered mail carries a calendar part (`queue` has work for it). */
  carriesItip(content: ParsedContent): boolean {
    return content.attachments.some((a) => CALENDAR_TYPES.has(a.contentType.toLowerCase()));
  }

  /** Called in the commit of deliveries that carry one: mail with a text/calendar part is queued for `tick`. */
  async queue(trx: Db, filed: { content: ParsedContent; messageIds: number[]; userIds: number[] }[]): Promise<void> {
    const jobs = filed.filter((f) => this.carriesItip(f.content))
      .flatMap((f) => f.messageIds.map((id, i) => ({ user_id: f.userIds[i]!, message_id: id })));
    await repo.addJobs(trx, jobs);
    if (jobs.length > 0) this.queued = true;
  }

  /** Whether `queue` added jobs since the last call (the runner is woken after the commit only then). */
  takeQueued(): boolean {
    const was = this.queued;
    this.queued = false;
    return was;
  }

  /** One round: mail to send (cal_itip_out), then the received-iTIP queue. */
  async tick(limit = 20): Promise<number> {
    return (await this.sendOut(limit)) + (await this.applyReceived(limit));
  }

  /** Sends queued iTIP mail; a job that fails stays for the next round (its lease runs out), up to MAX_ATTEMPTS. */
  async sendOut(limit = 20): Promise<number> {
    const now = this.now();
    const jobs = await repo.claimOut(this.d.db, now, new Date(now.getTime() + LEASE_MS), limit);
    for (const job of jobs) {
      try {
        await this.d.mailer.send(await senderProfile(this.d.db, job.user_id), job);
      } catch (err) {
        this.d.log?.warn({ err, job: job.id }, 'calendar iTIP mail not sent');
        if (job.attempts >= MAX_ATTEMPTS) await repo.deleteOut(this.d.db, job.id);
      }
    }
    return jobs.length;
  }

  private async applyReceived(limit: number): Promise<number> {
    const now = this.now();
    const jobs = await repo.claimJobs(this.d.db, now, new Date(now.getTime() + LEASE_MS), limit);
    for (const job of jobs) {
      try {
        await this.apply(job.user_id, job.message_id);
        await repo.deleteJob(this.d.db, job.id);
      } catch (err) {
        this.d.log?.warn({ err, job: job.id }, 'calendar iTIP mail not applied');
        if (job.attempts >= MAX_ATTEMPTS) await repo.deleteJob(this.d.db, job.id);
      }
    }
    return jobs.length;
  }

  /** What a received iTIP mail changes; only its own sender may speak for an attendee or an organiser. */
  private async apply(userId: number, messageId: number): Promise<void> {
    const { itip, from } = await this.readMail(userId, messageId, 'UTC').catch(() => ({ itip: null, from: '' }));
    if (!itip) return;
    const rows = await repo.rowsOfUid(this.d.db, userId, itip.uid);
    const master = rows[0];
    if (!master) return;
    if (itip.method === 'REPLY') {
      // RFC 5546 §3.2.3: a REPLY names the one attendee who answers; a reply to an older version does not count.
      const who = itip.attendees[0];
      if (!who || who.email !== from || master.organizer !== null || itip.sequence < master.sequence) return;
      await repo.setAnswer(this.d.db, master.id, who.email, who.partstat, this.now());
      return;
    }
    if (master.organizer !== itip.organizer.email || from !== itip.organizer.email) return;
    if (itip.method === 'CANCEL') {
      if (itip.master.recurrenceId && master.rrule) {
        await events.updateEvent(this.d.db, userId, master.id, { exdates: [...new Set([...master.exdates, itip.master.recurrenceId])] });
      } else {
        await repo.deleteUid(this.d.db, userId, itip.uid);
      }
      return;
    }
    // A newer REQUEST for an event already answered: the copy follows; a new time needs a new answer.
    if (itip.sequence <= master.sequence) return;
    const moved = itip.master.start.slice(0, 16) !== master.start_local.slice(0, 16) || itip.master.end.slice(0, 16) !== master.end_local.slice(0, 16) || itip.master.rrule !== master.rrule;
    await this.d.db.transaction().execute(async (trx) => {
      await repo.deleteUid(trx, userId, itip.uid);
      await this.file(trx, userId, itip, moved ? 'NEEDS-ACTION' : master.partstat ?? 'NEEDS-ACTION', master.reminder_min);
    });
  }

  /** Stores an invitation as the user's copy: the series and its overrides, marked with organiser, SEQUENCE and answer. */
  private async file(trx: Db, userId: number, itip: Itip, partstat: string, reminder?: number): Promise<void> {
    const mark = { organizer: itip.organizer.email, sequence: itip.sequence, partstat };
    const masterRow = rowOf({ ...itip.master, reminder: reminder ?? itip.master.reminder });
    if (!masterRow) throw invalid('message', 'The invitation has dates this calendar cannot hold', 'calendar.invite_unreadable');
    const series = await events.insertEvent(trx, { user_id: userId, uid: itip.uid, ...masterRow, ...mark });
    for (const o of itip.overrides) {
      const row = rowOf(o);
      if (row && o.recurrenceId) await events.insertEvent(trx, { user_id: userId, uid: itip.uid, ...row, rrule: null, lunar: false, series_id: series.id, recurrence_id: o.recurrenceId, ...mark });
    }
  }

  /** The iTIP object of one of the user's mails (null if it has none), and the sender the parser read. */
  private async readMail(userId: number, messageId: number, tz: string): Promise<{ itip: Itip | null; from: string }> {
    const msg = await repo.messageOf(this.d.db, userId, messageId);
    if (!msg) throw notFound('Message');
    const mail = await simpleParser(await this.d.blobs.get(msg.blob_hash), { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
    const part = mail.attachments.find((a) => CALENDAR_TYPES.has(a.contentType.toLowerCase()) && a.size < 512 * 1024);
    return { itip: part ? parseItip(part.content.toString('utf8'), tz) : null, from: msg.from.toLowerCase() };
  }
}
