import { createPublicKey } from 'node:crypto';
import type { Logger } from 'pino';
import webpush from 'web-push';
import { SystemFolder, type PushPayload, type PushSubscriptionInput } from '@mailwing/shared';
import type { PushConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { invalid } from '../../errors.js';
import type { OutboundGuard } from '../../net/guarded-fetch.js';
import type { AuthContext } from '../auth/auth.service.js';
import { ownersOf } from '../mailbox-link/mailbox-link.repository.js';
import type { NewMail } from '../message/ingest.service.js';
import { settingsOf, DEFAULT_SETTINGS } from '../setting/setting.repository.js';
import { endpointProblem, schemeProblem } from './endpoint.js';
import { inQuietHours } from './quiet-hours.js';
import * as repo from './push.repository.js';
import { TtlCache } from '../../cache/ttl-cache.js';
import { ensureAppKey } from '../system/app-keys.repository.js';

// A day: mail older than that is better found in the app than announced late.
const TTL_SECONDS = 24 * 3600;
const SEND_TIMEOUT_MS = 10_000;
// A push service answers with an empty body or a short error; more is not read.
const MAX_ANSWER_BYTES = 64 * 1024;
const SPAM = Number(SystemFolder.Spam);

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and encrypted payloads (RFC 8291): the
 * `web-push` library builds each request (keys, JWT, aes128gcm body); we send it
 * through the outbound guard (SSRF: the endpoint is user input), and the endpoint's
 * scheme decides http or https.
 *
 * Pushes are best-effort, not durable: a notification is tried once, right after the
 * mail is committed, by the node that stored it. A node that dies in between, or a
 * push service that is down, loses the notification, never the mail.
 */
export class PushService {
  private keys: Promise<repo.VapidKeys> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  // Whether a mailbox has any device, asked after every delivery: kept 5 s per process (issue 13).
  // A device bound through another process is notified from at most 5 s later.
  private readonly hasDevices = new TtlCache<number, boolean>(5_000);

  constructor(private readonly db: Db, private readonly cfg: PushConfig, private readonly guard: OutboundGuard, private readonly log?: Logger) {}

  /** Makes sure the key pair exists; called at start-up so the first client does not wait for it. */
  async init(): Promise<void> {
    await this.vapid();
  }

  async publicKey(): Promise<string> {
    return (await this.vapid()).publicKey;
  }

  async bind(me: AuthContext, input: PushSubscriptionInput): Promise<void> {
    const problem = await endpointProblem(input.endpoint, this.guard);
    if (problem) throw invalid('endpoint', problem.message, problem.reason);
    if (!isP256Point(input.p256dh)) throw invalid('p256dh', 'is not a P-256 public key', 'push.key_invalid');
    if (Buffer.from(input.auth, 'base64url').length !== 16) throw invalid('auth', 'is not an auth secret', 'push.key_invalid');
    await repo.upsertSubscription(this.db, { userId: me.userId, sessionId: me.sessionId, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth });
    this.hasDevices.delete(me.userId);
  }

  async unbind(userId: number, endpoint: string): Promise<void> {
    await repo.deleteSubscription(this.db, userId, endpoint);
    this.hasDevices.delete(userId);
  }

  /** Announces newly stored mail. Never throws and never delays the caller: failures are logged. */
  newMail(mail: NewMail[]): void {
    if (mail.length === 0) return;
    const job = this.notify(mail).catch((err: unknown) => this.log?.warn({ err }, 'push notification failed'));
    this.inFlight.add(job);
    void job.finally(() => this.inFlight.delete(job));
  }

  /** One notification to every device of a mailbox (calendar reminders); failures are logged, never thrown. */
  async notifyUser(userId: number, payload: PushPayload): Promise<void> {
    const subs = await repo.subscriptionsOf(this.db, [userId]);
    if (subs.length === 0) return;
    const keys = await this.vapid();
    await Promise.all(subs.map((sub) => this.send(sub, payload, false, keys)));
  }

  /** Resolves when the notifications started so far are done (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private vapid(): Promise<repo.VapidKeys> {
    this.keys ??= ensureAppKey<repo.VapidKeys>(this.db, 'vapid', webpush.generateVAPIDKeys()).catch((err: unknown) => {
      this.keys = undefined;
      throw err;
    });
    return this.keys;
  }

  private async notify(mail: NewMail[]): Promise<void> {
    const maybe = mail.filter((m) => m.folderMid !== SPAM);
    if (maybe.length === 0) return;
    // Most mailboxes have no subscribed device: one query settles that before any other
    // (issue 13: push cost three queries on every delivery).
    const reachable = new Set<number>();
    for (const id of new Set(maybe.map((m) => m.userId))) {
      if (await this.hasDevices.get(id, async () => (await repo.withDevices(this.db, [id])).has(id))) reachable.add(id);
    }
    const candidates = maybe.filter((m) => reachable.has(m.userId));
    if (candidates.length === 0) return;
    const userIds = [...new Set(candidates.map((m) => m.userId))];
    const settings = await settingsOf(this.db, userIds);
    const now = new Date();
    const wanted = candidates.filter((m) => {
      const s = settings.get(m.userId) ?? DEFAULT_SETTINGS;
      return s.notify_new_mail && s.notify_folders.includes(String(m.folderMid))
        && !inQuietHours(now, { enabled: s.quiet_enabled, start: s.quiet_start, end: s.quiet_end, timeZone: s.time_zone });
    });
    if (wanted.length === 0) return;
    // A mailbox bound into another's app (spec §6) notifies that app's devices too.
    const owners = await ownersOf(this.db, [...new Set(wanted.map((m) => m.userId))]);
    const subs = await repo.subscriptionsOf(this.db, [...new Set([...wanted.map((m) => m.userId), ...owners.map((o) => o.owner)])]);
    if (subs.length === 0) return;
    const heads = await repo.mailHeads(this.db, wanted.map((m) => m.messageId));
    const keys = await this.vapid();
    const sends: Promise<void>[] = [];
    for (const head of heads) {
      // Still where it was stored and unread: a rule or another device may have moved or read it meanwhile.
      if (head.seen || head.folder_mid === SPAM) continue;
      const audience = new Set([head.user_id, ...owners.filter((o) => o.linked === head.user_id).map((o) => o.owner)]);
      const endpoints = new Map(subs.filter((s) => audience.has(s.user_id)).map((s) => [s.endpoint, s]));
      const payload: PushPayload = {
        title: head.from_name || head.from_address || head.email,
        body: head.subject,
        mid: String(head.id),
        email: head.email,
        url: `./#/pages/read-mail/index?mid=${head.id}`,
      };
      for (const sub of endpoints.values()) sends.push(this.send(sub, payload, head.urgent, keys));
    }
    await Promise.all(sends);
  }

  private async send(sub: { endpoint: string; p256dh: string; auth: string }, payload: PushPayload, urgent: boolean, keys: repo.VapidKeys): Promise<void> {
    try {
      // The address is checked again by the guard as it connects: the name may resolve elsewhere now than when it was bound.
      const problem = schemeProblem(sub.endpoint, this.guard);
      if (problem) throw new Error(`push endpoint refused: ${problem.message}`);
      const req = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject: this.cfg.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TTL_SECONDS,
        urgency: urgent ? 'high' : 'normal',
        contentEncoding: 'aes128gcm',
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = String(v);
      // No redirects: a push service that answers 3xx has not taken the message.
      const res = await this.guard.fetch(req.endpoint, {
        method: 'POST', headers, body: req.body ?? undefined, timeoutMs: SEND_TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES,
      });
      // 404 and 410: the subscription expired or was withdrawn (RFC 8030 §7.3, §8.3); it will never work again.
      if (res.status === 404 || res.status === 410) await repo.deleteEndpoint(this.db, sub.endpoint);
      else if (res.status < 200 || res.status > 299) this.log?.warn({ status: res.status, host: new URL(sub.endpoint).host }, 'push service refused a notification');
    } catch (err) {
      this.log?.warn({ err, host: safeHost(sub.endpoint) }, 'push notification not sent');
    }
  }
}

/** An uncompressed P-256 point (65 bytes, 0x04 first) that lies on the curve. */
function isP256Point(b64url: string): boolean {
  const raw = Buffer.from(b64url, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04) return false;
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

function safeHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}
