import type { Logger } from 'pino';
import type { BlobStore } from './blob/blob-store.js';
import { BlobService } from './blob/blob.service.js';
import type { Config } from './config.js';
import type { Db, DbHandle } from './db/connect.js';
import { CompanyService } from './features/admin/company.service.js';
import { AuthService } from './features/auth/auth.service.js';
import { SessionIssuer } from './features/auth/session-issuer.js';
import { MailboxService } from './features/mailbox/mailbox.service.js';
import { IngestService } from './features/message/ingest.service.js';
import { MessageService } from './features/message/message.service.js';
import { ParsePool } from './features/message/parse-pool.js';
import { companyAuditPolicy } from './features/compose/audit-policy.js';
import { ComposeService } from './features/compose/compose.service.js';
import { UploadService } from './features/compose/upload.service.js';
import { DeliveryWorker } from './delivery/delivery.worker.js';
import { QueueRunner } from './delivery/queue-runner.js';
import { SearchService } from './features/search/search.service.js';
import { EventBus } from './features/events/event-bus.js';
import { ContactService } from './features/contact/contact.service.js';
import { DirectoryService } from './features/directory/directory.service.js';
import { TagService } from './features/tag/tag.service.js';
import { SmtpOutbound } from './delivery/smtp-outbound.js';
import { MailboxLinkService } from './features/mailbox-link/mailbox-link.service.js';
import { PushService } from './features/push/push.service.js';
import { SettingService } from './features/setting/setting.service.js';
import { WechatService } from './features/wechat/wechat.service.js';
import { outboundGuard } from './net/guarded-fetch.js';
import { SystemMailer } from './delivery/system-mailer.js';
import { DevicesService } from './features/security/devices.service.js';
import { EmailCodes } from './features/security/email-codes.js';
import { ResetService } from './features/security/reset.service.js';
import { SecurityService } from './features/security/security.service.js';
import { VerifyService } from './features/security/verify.service.js';
import { CalendarService } from './features/calendar/calendar.service.js';
import { ReminderService } from './features/calendar/reminder.service.js';
import { CalendarIcsService } from './features/calendar/calendar-ics.service.js';

export interface Services {
  config: Config;
  db: Db;
  blobs: BlobService;
  auth: AuthService;
  mailbox: MailboxService;
  messages: MessageService;
  ingest: IngestService;
  companies: CompanyService;
  parser: ParsePool;
  uploads: UploadService;
  compose: ComposeService;
  outbound: SmtpOutbound;
  delivery: DeliveryWorker;
  /** Timed sends and the outbound queue; started by the runtime when WORKERS is on. */
  queue: QueueRunner;
  tags: TagService;
  search: SearchService;
  events: EventBus;
  contacts: ContactService;
  directory: DirectoryService;
  settings: SettingService;
  /** Web Push for new mail; hears of it through ingest.onNewMail. */
  push: PushService;
  /** Several mailboxes in one app: bind, select, switch, unbind. */
  links: MailboxLinkService;
  wechat: WechatService;
  /** Mail the service writes itself (verification codes). */
  mailer: SystemMailer;
  /** Second verification: login/bind challenges (challenge), secverify, and onBindVerified for binding mailboxes. */
  verify: VerifyService;
  reset: ResetService;
  security: SecurityService;
  devices: DevicesService;
  calendar: CalendarService;
  /** Calendar reminders by mail and Web Push; run by the runtime when WORKERS is on. */
  reminders: ReminderService;
  calendarIcs: CalendarIcsService;
}

/** Wires the feature services together; no I/O happens here. */
export function createServices(config: Config, db: Db, store: BlobStore, log?: Logger, listen?: DbHandle['listen']): Services {
  const blobs = new BlobService(db, store);
  const mailbox = new MailboxService(db);
  const parser = new ParsePool(config.parseWorkers, 30_000, log);
  const messages = new MessageService(db, blobs, mailbox);
  // PGlite has one connection, so one commit at a time; a server overlaps several.
  const ingest = new IngestService(db, blobs, parser, config.databaseUrl ? 4 : 1);
  const companies = new CompanyService(db);
  const uploads = new UploadService(db, blobs, config.attachments);
  const hostname = config.smtp.hostname;
  const outbound = new SmtpOutbound(config.delivery, hostname);
  const delivery = new DeliveryWorker({ db, store, ingest, outbound, cfg: config.delivery, hostname, log });
  // The runner needs compose (timed sends) and compose needs to wake the runner after a send.
  const compose = new ComposeService({
    db, blobs, parser, uploads, messages, ingest, policy: companyAuditPolicy, hostname, maxTotalBytes: config.attachments.maxTotalBytes,
    onQueued: () => queue.wake(),
  });
  const queue = new QueueRunner(async () => (await compose.dispatchDue()) + (await delivery.runOnce()), config.delivery.pollMs, log);
  const sessions = new SessionIssuer(db, config.sessionDays);
  const mailer = new SystemMailer({ db, blobs, ingest, hostname, onQueued: () => queue.wake(), log });
  const codes = new EmailCodes(db, mailer);
  const verify = new VerifyService(db, sessions, codes);
  const auth = new AuthService(db, sessions, (user, client) => verify.challenge(user, 'login', client));
  const push = new PushService(db, config.push, outboundGuard(config.outbound, config.push.allowPrivate), log);
  ingest.onNewMail((mail) => push.newMail(mail));
  const links = new MailboxLinkService(db, auth, verify);
  verify.onBindVerified((b) => links.link(b));
  return {
    config, db, blobs, mailbox, parser, messages, ingest, uploads, compose, outbound, delivery, queue,
    auth,
    companies,
    tags: new TagService(db),
    search: new SearchService(db, mailbox),
    // Without a LISTEN source (some CLI uses) the bus simply never fires.
    events: new EventBus(listen ?? (async () => async () => undefined), log),
    contacts: new ContactService(db),
    directory: new DirectoryService(db, companies),
    mailer, verify,
    reset: new ResetService(db, codes, mailer),
    security: new SecurityService(db, codes),
    devices: new DevicesService(db),
    settings: new SettingService(db, blobs),
    push, links,
    calendar: new CalendarService({ db }),
    reminders: new ReminderService({ db, ingest, push, hostname, log }),
    calendarIcs: new CalendarIcsService(db),
    wechat: new WechatService(db, config.wechat, auth, outboundGuard(config.outbound)),
  };
}
