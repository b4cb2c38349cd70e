import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import { outsideMembers, resolveMany, type LocalTarget } from '../features/account/account.repository.js';
import { RecipientCache } from '../features/account/recipient-cache.js';
import { GroupRelay, headMessageId } from '../features/group/group-relay.js';
import { inboundRefusal, refusalForStatus } from '../features/company-life/expiry.service.js';
import type { HostedDomains } from '../features/account/hosted-domains.js';
import type { IngestService, LocalRecipient } from '../features/message/ingest.service.js';
import type { Db } from '../db/connect.js';
import { traceHeaders } from './received-header.js';
import { DataSink } from './data-sink.js';
import type { Spool } from '../blob/blob-store.js';
import { ConnectionGuard } from './connection-guard.js';
import { RecipientTarpit } from './recipient-tarpit.js';
import type { SmtpLimitsConfig } from '../config.js';
import { withAuthResults, type InboundAuth } from './inbound-auth.js';
import { spooledMessage } from './spooled-message.js';
import { SystemFolder } from '@mailwing/shared';
import { groupAccepts } from '../features/group/send-policy.js';
import type { CompanyListService } from '../features/company-list/company-list.service.js';
import { screenCompanyLists } from '../features/company-list/company-list.screen.js';

const MAX_RECIPIENTS = 100;
// Mail up to this size is held in memory while it arrives (most is 4–40 KB); bigger goes to a spool.
const MEMORY_MESSAGE_BYTES = 256 * 1024;

export interface SmtpReceiverOptions {
  hostname: string;
  maxBytes: number;
  socketTimeoutMs: number;
  /** Overrides MEMORY_MESSAGE_BYTES (tests). */
  memoryBytes?: number;
}

type SmtpError = Error & { responseCode: number };
const reply = (code: number, text: string): SmtpError => Object.assign(new Error(text), { responseCode: code });
const isReply = (err: unknown): err is SmtpError => err instanceof Error && typeof (err as Partial<SmtpError>).responseCode === 'number';

/**
 * The MX for hosted domains (smtp-server). No SQL here: recipients are resolved
 * and mail is stored through the account and message features. A message is
 * acknowledged with 250 only after IngestService has fsynced and committed it.
 */
export function createSmtpReceiver(deps: { db: Db; ingest: IngestService; recipientClock?: { now: () => number }; log: Logger; inbound: InboundAuth; domains: HostedDomains; lists?: CompanyListService; relay?: GroupRelay }, opts: SmtpReceiverOptions, limits: SmtpLimitsConfig): SMTPServer {
  const targets = new WeakMap<SMTPServerSession, Map<string, LocalTarget[]>>();
  // Issue 17: per group recipient, its outside members (the outbound queue takes them).
  const relays = new WeakMap<SMTPServerSession, Map<string, string[]>>();
  // Issue 13: RCPT answers a connection keeps for its next mails (recipient-cache.ts says why that is safe).
  const lookups = new WeakMap<SMTPServerSession, RecipientCache>();
  const clock = deps.recipientClock ?? { now: () => Date.now() };

  const guard = new ConnectionGuard(limits, deps.log);
  const tarpit = new RecipientTarpit({ after: limits.tarpitAfterUnknownRcpts, delayMs: limits.tarpitDelayMs, max: limits.maxUnknownRcpts }, deps.log);

  const server: SMTPServer = new SMTPServer({
    name: opts.hostname,
    banner: 'Mailwing ESMTP',
    size: opts.maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH'],
    socketTimeout: opts.socketTimeoutMs,
    closeTimeout: 5_000,
    maxClients: 500,
    logger: false,

    // Per-IP caps, line deadline and session length (issue 12, finding 5): connection-guard.ts.
    onConnect: (session, cb) => guard.admit(server, session, cb),
    onSecure: (socket, session, cb) => guard.secured(socket, session, cb),
    onClose: (session) => guard.closed(session),

    onMailFrom(address: SMTPServerAddress, session, cb) {
      targets.set(session, new Map());
      relays.set(session, new Map());
      deps.inbound.checkEnvelope(address.address).then(
        (refusal) => cb(refusal ? reply(refusal.code, refusal.text) : undefined),
        (err: unknown) => {
          deps.log.error({ err }, 'sender lookup failed');
          cb(reply(451, '4.3.0 Temporary lookup failure, try again later'));
        },
      );
    },

    onRcptTo(address: SMTPServerAddress, session, cb) {
      const rcpt = address.address.toLowerCase();
      const map = targets.get(session) ?? new Map<string, LocalTarget[]>();
      targets.set(session, map);
      if (map.size >= MAX_RECIPIENTS) return cb(reply(452, '4.5.3 Too many recipients in one transaction'));
      (async () => {
        let cache = lookups.get(session);
        if (!cache) lookups.set(session, (cache = new RecipientCache(deps.db, () => clock.now())));
        const found = await cache.resolve(rcpt);
        const outside = await groupOutside(rcpt, found);
        // The recipient's company blocks this envelope sender or client IP: refused here, per recipient.
        const listed = (found.length > 0 || outside.relay.length > 0) && deps.lists
          ? await deps.lists.judge(rcpt.split('@')[1] ?? '', { addresses: [session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : ''], ip: session.remoteAddress })
          : null;
        if (listed?.kind === 'block') return cb(reply(550, `5.7.1 <${rcpt}>: the recipient's organisation does not accept mail from this sender`));
        if (found.length > 0 || outside.relay.length > 0) {
          // A suspended company's mail is refused for now (4xx), never dropped (company-life/expiry.service.ts).
          const direct = found.length === 1 && found[0]!.companyStatus !== undefined ? found[0]! : null;
          const refusal = direct ? refusalForStatus(direct.companyStatus!) : await inboundRefusal(deps.db, rcpt.split('@')[1] ?? '');
          if (refusal) return cb(reply(refusal.code, refusal.text));
          // Issue 17: a full mailbox (or a group with one) waits with a temporary 452, so the sender's server retries and nothing is lost.
          if (found.some((t) => t.full)) return cb(reply(452, `4.2.2 <${rcpt}>: mailbox full, try again later`));
          if ((found[0]?.via === 'group' || outside.relay.length > 0) && !(await groupAccepts(deps.db, rcpt, session.envelope.mailFrom ? session.envelope.mailFrom.address : ''))) {
            return cb(reply(550, `5.7.1 <${rcpt}>: you may not send to this group`));
          }
          map.set(rcpt, [...found, ...outside.local]);
          if (outside.relay.length > 0) relays.get(session)?.set(rcpt, outside.relay);
          return cb();
        }
        const domain = rcpt.split('@')[1] ?? '';
        if (domain && (await deps.domains.has(domain))) return tarpit.refuse(session, reply(550, `5.1.1 <${rcpt}>: no such mailbox here`), cb);
        return tarpit.refuse(session, reply(550, `5.7.1 <${rcpt}>: relaying denied, this server only accepts mail for its hosted domains`), cb);
      })().catch((err: unknown) => {
        deps.log.error({ err }, 'recipient lookup failed');
        cb(reply(451, '4.3.0 Temporary lookup failure, try again later'));
      });
    },

    onData(stream, session, cb) {
      const sink = new DataSink(opts.maxBytes, opts.memoryBytes ?? MEMORY_MESSAGE_BYTES, () => deps.ingest.spool());
      stream.on('data', (c: Buffer) => {
        const wait = sink.push(c);
        if (!wait) return;
        stream.pause();
        void wait.then(() => stream.resume());
      });
      // The client went away mid-DATA (smtp-server destroys the stream): nothing is kept.
      stream.on('error', (err) => { void sink.abort().finally(() => cb(reply(451, `4.3.0 ${err.message}`))); });
      stream.on('end', () => {
        if (stream.sizeExceeded || sink.overflowed) {
          void sink.abort().finally(() => cb(reply(552, `5.3.4 Message exceeds the size limit of ${opts.maxBytes} bytes`)));
          return;
        }
        store(sink, session).then((id) => cb(null, `2.0.0 Ok: stored as ${id}`), (err: unknown) => {
          if (isReply(err)) return cb(err);
          deps.log.error({ err }, 'storing an incoming message failed');
          cb(reply(451, '4.3.0 Temporary failure storing the message, try again later'));
        });
      });
    },
  });

  /**
   * A group's outside members: those hosted here after all reach their mailbox (in
   * GroupMail), the others are passed on through the outbound queue. None without a relay.
   */
  async function groupOutside(rcpt: string, found: LocalTarget[]): Promise<{ local: LocalTarget[]; relay: string[] }> {
    if (!deps.relay || found[0]?.via === 'direct') return { local: [], relay: [] };
    const members = (await outsideMembers(deps.db, [rcpt])).get(rcpt) ?? [];
    if (members.length === 0) return { local: [], relay: [] };
    const local: LocalTarget[] = [];
    const relay: string[] = [];
    for (const [address, r] of await resolveMany(deps.db, members)) {
      if (r.targets.length > 0) local.push(...r.targets.map((t) => ({ ...t, via: 'group' as const })));
      else if (!r.hosted) relay.push(address);
    }
    return { local, relay };
  }

  /** Queues the outside members' copies (committed before the 250); a group this mail already went through is skipped. */
  async function relayOutside(session: SMTPServerSession, head: Buffer, body: { raw: Buffer } | { head: Buffer; spool: Spool }, from: string): Promise<void> {
    const groups = relays.get(session);
    if (!deps.relay || !groups || groups.size === 0) return;
    const looped = GroupRelay.looped(head, [...groups.keys()]);
    const due = new Map([...groups].filter(([g]) => !looped.has(g)));
    await deps.relay.relay(body, from, due, headMessageId(head));
  }

  /**
   * Screens and stores a received message; resolves with its first id once it is
   * fsynced and committed. A big message stays in its spool: sender authentication
   * reads it from there and the blob is our headers followed by the spool, streamed.
   */
  async function store(sink: DataSink, session: SMTPServerSession): Promise<number> {
    if (sink.failed) throw sink.failed;
    const data = await sink.take();
    const trace = Buffer.from(traceHeaders(session, opts.hostname));
    const recipients = toRecipients(targets.get(session));
    const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const peer = { ip: session.remoteAddress, helo: session.hostNameAppearsAs, mailFrom: from };
    // Company lists after sender authentication: a DMARC p=reject failure is refused before any list is asked.
    const listed = async (screened: { recipients: LocalRecipient[]; fromAddresses: string[] }): Promise<LocalRecipient[]> => {
      if (!deps.lists) return screened.recipients;
      const addresses = [from.toLowerCase(), ...screened.fromAddresses];
      const out = await screenCompanyLists(deps.lists, targets.get(session) ?? new Map(), screened.recipients, { addresses, ip: peer.ip });
      if (out === 'refuse') throw reply(550, '5.7.1 The recipients\' organisation does not accept mail from this sender');
      return out;
    };
    if (!data.spool) {
      const raw = Buffer.concat([trace, ...data.chunks]);
      // Parsing and the sender check start together, off this thread; the screen waits for the check.
      const prepared = deps.ingest.prepare(raw, from, { ...peer, mta: opts.hostname });
      const screened = await deps.inbound.screen(raw, peer, recipients, prepared.checked);
      if ('refuse' in screened) throw reply(screened.refuse.code, screened.refuse.text);
      await relayOutside(session, raw, { raw }, from);
      return (await deps.ingest.deliver(withAuthResults(raw, screened.header), from, await listed(screened), prepared.content))[0] ?? 0;
    }
    try {
      const source = spooledMessage(trace, data.spool);
      const screened = await deps.inbound.screen(source, peer, recipients);
      if ('refuse' in screened) throw reply(screened.refuse.code, screened.refuse.text);
      const head = await source.head(64 * 1024);
      const kept = await listed(screened);
      await relayOutside(session, head, { head: trace, spool: data.spool }, from);
      return (await deps.ingest.deliverSpooled(withAuthResults(trace, screened.header), data.spool, from, kept))[0] ?? 0;
    } finally {
      // The blob is a copy by now: a spool that will not go away is the sweep's, not a reason to fail the mail.
      await data.spool.discard().catch((err: unknown) => deps.log.warn({ err }, 'a message spool could not be removed'));
    }
  }
  return server;
}

/** One row per mailbox: a direct address wins over reaching the same person through a group. */
function toRecipients(map: Map<string, LocalTarget[]> | undefined): LocalRecipient[] {
  const byUser = new Map<number, LocalRecipient>();
  for (const list of map?.values() ?? []) {
    for (const t of list) {
      const folderMid = Number(t.via === 'group' ? SystemFolder.GroupMail : SystemFolder.Inbox);
      const prev = byUser.get(t.userId);
      // Resolved at RCPT time, maybe from the cache: the insert files it only for a mailbox still active.
      if (!prev || folderMid < prev.folderMid) byUser.set(t.userId, { userId: t.userId, folderMid, activeOnly: true });
    }
  }
  return [...byUser.values()];
}

export function listenSmtp(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}
