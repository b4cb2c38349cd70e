import type { Logger } from 'pino';
import type { BlobStore } from './blob/blob-store.js';
import { BlobService } from './blob/blob.service.js';
import type { Config } from './config.js';
import type { Db, DbHandle } from './db/connect.js';
import { CompanyService } from './features/admin/company.service.js';
import { AuthService } from './features/auth/auth.service.js';
import { SessionIssuer } from './features/auth/session-issuer.js';
import { MailboxService } from './features/mailbox/mailbox.service.js';
import { FilingThread } from './features/message/filing-thread.js';
import { IngestService } from './features/message/ingest.service.js';
import { MessageService } from './features/message/message.service.js';
import { ConversationService } from './features/conversation/conversation.service.js';
import { ParsePool } from './features/message/parse-pool.js';
import { ComposeService } from './features/compose/compose.service.js';
import { DevClock } from './features/dev-clock/dev-clock.js';
import { UploadService } from './features/compose/upload.service.js';
import { DeliveryWorker } from './delivery/delivery.worker.js';
import { QueueRunner } from './delivery/queue-runner.js';
import { SearchIndexer } from './features/search/search-indexer.js';
import { SearchService } from './features/search/search.service.js';
import { EventBus } from './features/events/event-bus.js';
import { SESSION_FACTS, SessionCache } from './features/auth/session-cache.js';
import { watchWrites } from './db/write-watch.js';
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
import { SignatureService } from './features/signature/signature.service.js';
import { TemplateService } from './features/template/template.service.js';
import { RuleEngine } from './features/mail-rule/rule-engine.js';
import { MailRuleService } from './features/mail-rule/mail-rule.service.js';
import { CollectService } from './features/collect/collect.service.js';
import { pauseNotice } from './features/collect/collect.notice.js';
import { loadCollectKey, SecretBox } from './features/collect/secret-box.js';
import { AddressPolicy, dnsResolve } from './net/ssrf.js';
import { DiskService } from './features/disk/disk.service.js';
import { DiskUploadService } from './features/disk/disk-upload.service.js';
import { ShareService } from './features/disk/share.service.js';
import { QuotaService } from './features/quota/quota.service.js';
import { NoteService } from './features/note/note.service.js';
import { CalendarService } from './features/calendar/calendar.service.js';
import { ReminderService } from './features/calendar/reminder.service.js';
import { CalendarIcsService } from './features/calendar/calendar-ics.service.js';
import { DomainCheckService } from './features/domain-check/domain-check.service.js';
import { domainResolver } from './features/domain-check/dns-check.js';
import { sendWelcome, WelcomeService } from './features/welcome/welcome.service.js';
import { BrandingService } from './features/branding/branding.service.js';
import { WestAccountService } from './features/west-account/west-account.service.js';
import { WestCaptchaService } from './features/west-account/west-captcha.js';
import { WestPayService } from './features/west-pay/west-pay.service.js';
import { westProviders } from './features/west-pay/providers.js';
import { WestShopService } from './features/west-shop/west-shop.service.js';
import { CompanyLifeService } from './features/company-life/company-life.service.js';
import { PeopleService } from './features/people/people.service.js';
import { GroupService } from './features/group/group.service.js';
import { QuotaNoticeService } from './features/quota/quota-notice.service.js';
import { AuditService } from './features/audit/audit.service.js';
import { CompanyListService } from './features/company-list/company-list.service.js';
import { InviteService } from './features/calendar/invite.service.js';
import { ItipMailer } from './features/calendar/itip-mail.js';
import { MigrateService } from './features/migrate/migrate.service.js';
import { AnnouncementService } from './features/announcement/announcement.service.js';
import { GroupRelay } from './features/group/group-relay.js';

export interface Services {
  config: Config;
  db: Db;
  blobs: BlobService;
  auth: AuthService;
  mailbox: MailboxService;
  messages: MessageService;
  conversations: ConversationService;
  ingest: IngestService;
  companies: CompanyService;
  parser: ParsePool;
  uploads: UploadService;
  compose: ComposeService;
  outbound: SmtpOutbound;
  delivery: DeliveryWorker;
  /** Timed sends and the outbound queue; started by the runtime when WORKERS is on. */
  queue: QueueRunner;
  /** DEV_CLOCK only: the timed-send clock a test rig moves (features/dev-clock). */
  devClock: DevClock | undefined;
  /** Issue 17: mail from outside to a group, passed on to its outside members through the queue. */
  groupRelay: GroupRelay;
  tags: TagService;
  search: SearchService;
  /** Moves delivered mail's lexemes into the full-text index when deliveries pause (migration 030). */
  searchIndexer: SearchIndexer;
  searchIndexRunner: QueueRunner;
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
  /** Issue 16: signatures and templates. */
  signatures: SignatureService;
  templates: TemplateService;
  /** Filter rules and auto-reply (issue 16): the engine every delivery path calls, the rules API, and jobs over stored mail. */
  rules: RuleEngine;
  mailRules: MailRuleService;
  ruleJobs: QueueRunner;
  /** Mail collected from other mailboxes (POP3/IMAP), and the runner that polls due accounts. */
  collect: CollectService;
  collectRunner: QueueRunner;
  /** Mail and disk bytes against the user's quota. */
  quota: QuotaService;
  disk: DiskService;
  /** Resumable (tus) uploads into the disk; `sweep` removes expired ones. */
  diskUploads: DiskUploadService;
  shares: ShareService;
  /** Issue 18: cloud notes. */
  notes: NoteService;
  calendar: CalendarService;
  /** Calendar reminders by mail and Web Push; run by the runtime when WORKERS is on. */
  reminders: ReminderService;
  calendarIcs: CalendarIcsService;
  /** Issue 17 console: domain DNS checks (rechecked by the runtime), welcome mail, login-page branding. */
  domainChecks: DomainCheckService;
  welcome: WelcomeService;
  branding: BrandingService;
  /** Issue 19, the west storefront. `westClock` is the storefront's time; tests move it. */
  westClock: { now: () => Date };
  westCaptcha: WestCaptchaService;
  westAccounts: WestAccountService;
  westPay: WestPayService;
  /** Asks providers about top-ups pending past 15 minutes; run by the runtime when WORKERS is on. */
  westReconciler: QueueRunner;
  westShop: WestShopService;
  /** Issue 15: the time Idempotency-Key rows are stamped and swept with; tests move it. */
  idempotencyClock: { now: () => Date };
  /** Issue 19: provisioning, expiry, exports and cancellation of sold companies; its runner starts with the workers. */
  companyLife: CompanyLifeService;
  /** Issue 17: people, departments, admin scopes and quotas; aliases and mail groups. */
  people: PeopleService;
  groups: GroupService;
  /** Quota warnings mailed to the user and their admins; run by the runtime when WORKERS is on. */
  quotaNotices: QuotaNoticeService;
  /** Issue 17: outgoing-mail audit (the policy compose asks) and its timeout runner. */
  audit: AuditService;
  auditRunner: QueueRunner;
  /** Issue 17: company block/allow lists, judged on the SMTP path. */
  companyLists: CompanyListService;
  /** Calendar invitations by mail (iTIP/iMIP); `inviteRunner` applies received replies and updates. */
  invites: InviteService;
  inviteRunner: QueueRunner;
  /** Issue 17: mail migration from another IMAP server (queue jobs), and company announcements. */
  migrate: MigrateService;
  migrateRunner: QueueRunner;
  announcements: AnnouncementService;
  /** Issue 13: the clock SMTP's kept RCPT answers expire by (features/account/recipient-cache.ts); tests move it. */
  recipientClock: { now: () => number };
}

/** How often the search indexer looks for a pause in deliveries (the index lags a pause by at most this). */
const SEARCH_INDEX_POLL_MS = 500;

/** Wires the feature services together; no I/O happens here. */
export function createServices(config: Config, database: Db, store: BlobStore, log?: Logger, listen?: DbHandle['listen']): Services {
  // Without a LISTEN source (some CLI uses) the bus simply never fires.
  const events = new EventBus(listen ?? (async () => async () => undefined), log);
  // Sessions found live are kept per process while the bus listens, and forgotten when what they rest on changes (features/auth/session-cache.ts).
  const sessionCache = new SessionCache({ active: () => events.listening });
  events.onSessionChange((c) => (c === 'all' ? sessionCache.forgetAll() : 'userId' in c ? sessionCache.forgetUser(c.userId) : sessionCache.forgetCompany(c.companyId)));
  const db = database.withPlugin(watchWrites(SESSION_FACTS, () => sessionCache.forgetAll()));
  const blobs = new BlobService(db, store);
  const mailbox = new MailboxService(db);
  // Sender authentication runs in the parse workers on PostgreSQL, off the thread that serves SMTP and HTTP.
  // On PGlite it stays there: the embedded database's own thread is what limits ingest, and on 2 cores a
  // busier parse worker takes CPU from it (blast ingest 551/579 -> 486/514 msg/s, two interleaved pairs, 29 Nov).
  const workerDns = config.databaseUrl ? { servers: config.delivery.dnsServers, timeoutMs: config.inboundAuth.dnsTimeoutMs } : undefined;
  const parser = new ParsePool(config.parseWorkers, 30_000, log, workerDns);
  const messages = new MessageService(db, blobs, mailbox);
  // On PostgreSQL a delivery batch is filed from a thread of its own (filing-thread.ts says why); PGlite already runs on its own thread.
  const ingest = new IngestService(db, blobs, parser, config.databaseUrl ? new FilingThread(config.databaseUrl, log) : undefined);
  const companies = new CompanyService(db);
  const uploads = new UploadService(db, blobs, config.attachments);
  const hostname = config.smtp.hostname;
  const outbound = new SmtpOutbound(config.delivery, hostname);
  const delivery = new DeliveryWorker({ db, blobs, ingest, outbound, cfg: config.delivery, hostname, log });
  // Audit mails auditors and senders through the system mailer, made below; a pass wakes the timed-send runner.
  const audit = new AuditService({ db, messages, mailer: { send: (m) => mailer.send(m) }, webBase: `https://${hostname}`, onReleased: () => queue.wake(), log });
  // The runner needs compose (timed sends) and compose needs to wake the runner after a send.
  const devClock = config.devClock ? new DevClock() : undefined;
  const compose = new ComposeService({
    db, blobs, parser, uploads, messages, ingest, policy: audit, hostname, maxTotalBytes: config.attachments.maxTotalBytes,
    onQueued: () => queue.wake(), now: devClock?.now,
  });
  const queue = new QueueRunner(async () => (await compose.dispatchDue()) + (await delivery.runOnce()), config.delivery.pollMs, log);
  const sessions = new SessionIssuer(db, config.sessionDays);
  const mailer = new SystemMailer({ db, blobs, ingest, hostname, onQueued: () => queue.wake(), log });
  const codes = new EmailCodes(db, mailer);
  const verify = new VerifyService(db, sessions, codes);
  const auth = new AuthService(db, sessions, (user, client) => verify.challenge(user, 'login', client), sessionCache);
  const push = new PushService(db, config.push, outboundGuard(config.outbound, config.push.allowPrivate), log);
  ingest.onNewMail((mail) => push.newMail(mail));
  const searchIndexer = new SearchIndexer(db, (sources) => parser.tokens(sources));
  ingest.onNewMail(() => searchIndexer.delivered());
  const searchIndexRunner = new QueueRunner(() => searchIndexer.tick(), SEARCH_INDEX_POLL_MS, log);
  const links = new MailboxLinkService(db, auth, verify);
  const rules = new RuleEngine({ db, blobs, hostname, now: () => new Date(), onQueued: () => queue.wake(), log });
  rules.attach(ingest);
  ingest.useRules(rules);
  const mailRules = new MailRuleService(rules);
  const ruleJobs = new QueueRunner(() => mailRules.runJobs(), 1_000, log);
  verify.onBindVerified((b) => links.link(b));
  const collect = new CollectService({
    db, ingest, box: new SecretBox(loadCollectKey(config.collect.key, config.dataDir)), cfg: config.collect, maxMessageBytes: config.smtp.maxBytes,
    policy: new AddressPolicy({ allowPrivate: config.collect.allowPrivate, allow: config.outbound.allow, resolve: config.outbound.dnsServers.length ? dnsResolve(config.outbound.dnsServers) : undefined }),
    notifyPaused: pauseNotice(db, mailer), log,
  });
  // Due accounts are looked for every 30 s; each runs at its own interval (5–60 min).
  const collectRunner = new QueueRunner(() => collect.runDue(), 30_000, log);
  const quota = new QuotaService(db);
  const disk = new DiskService(db, blobs);
  const invites = new InviteService({ db, blobs, mailer: new ItipMailer({ db, blobs, ingest, onQueued: () => queue.wake() }), log, onQueued: () => inviteRunner.wake() });
  ingest.onCommit({ wants: (content) => invites.carriesItip(content), run: (trx, filed) => invites.queue(trx, filed) });
  const inviteRunner = new QueueRunner(() => invites.tick(), 15_000, log);
  ingest.onNewMail(() => { if (invites.takeQueued()) inviteRunner.wake(); });
  const diskUploads = new DiskUploadService({ db, blobs, disk, quota, dir: config.disk.uploadDir, ttlMs: config.disk.uploadTtlMs });
  const westClock = { now: () => new Date() };
  const westNow = () => westClock.now();
  const westCaptcha = new WestCaptchaService(db, westNow);
  const westAccounts = new WestAccountService({ db, mailer, captcha: westCaptcha, now: westNow, sessionDays: config.sessionDays, mailDomain: config.west.mailDomain });
  const westPay = new WestPayService({ db, providers: westProviders(config), now: westNow, log });
  const westReconciler = new QueueRunner(() => westPay.reconcileDue(), 60_000, log);
  // Every user the console creates (one by one or by CSV) gets the company's welcome mail (issue 17).
  const people = new PeopleService(db, companies, messages, blobs);
  people.onUserCreated.push(sendWelcome);
  // Migration logs in to old servers like collection does: the same key file and outbound policy.
  const migrate = new MigrateService({
    db, ingest, box: new SecretBox(loadCollectKey(config.collect.key, config.dataDir)), cfg: config.collect, maxMessageBytes: config.smtp.maxBytes,
    policy: new AddressPolicy({ allowPrivate: config.collect.allowPrivate, allow: config.outbound.allow, resolve: config.outbound.dnsServers.length ? dnsResolve(config.outbound.dnsServers) : undefined }),
    log,
  });
  const migrateRunner = new QueueRunner(() => migrate.runDue(), 10_000, log);
  const recipientClock = { now: () => Date.now() };
  return {
    groupRelay: new GroupRelay({ db, blobs, onQueued: () => queue.wake() }),
    idempotencyClock: { now: () => new Date() },
    westClock, westCaptcha, westAccounts, westPay, westReconciler, westShop: new WestShopService({ db, now: westNow }),
    migrate, migrateRunner, announcements: new AnnouncementService(db),
    collect, collectRunner,
    quota, disk, diskUploads, shares: new ShareService(db, disk),
    config, db, blobs, mailbox, parser, messages, ingest, uploads, compose, outbound, delivery, queue, devClock,
    conversations: new ConversationService(db, blobs, mailbox, messages),
    auth,
    companies,
    tags: new TagService(db),
    search: new SearchService(db, mailbox, searchIndexer),
    searchIndexer, searchIndexRunner,
    events,
    contacts: new ContactService(db, ingest.senderRules),
    directory: new DirectoryService(db, companies),
    mailer, verify,
    reset: new ResetService(db, codes, mailer),
    security: new SecurityService(db, codes),
    devices: new DevicesService(db),
    settings: new SettingService(db, blobs),
    push, links,
    rules, mailRules, ruleJobs,
    calendar: new CalendarService({ db, invites }),
    reminders: new ReminderService({ db, ingest, push, hostname, log }),
    calendarIcs: new CalendarIcsService(db),
    wechat: new WechatService(db, config.wechat, auth, outboundGuard(config.outbound)),
    signatures: new SignatureService({ db }),
    templates: new TemplateService({ db }),
    notes: new NoteService({ db }),
    domainChecks: new DomainCheckService({
      db, mailHost: hostname, sendingIps: config.domainCheck.sendingIps, log,
      lookup: domainResolver(config.domainCheck.dnsServers.length ? config.domainCheck.dnsServers : config.delivery.dnsServers, config.domainCheck.timeoutMs),
    }),
    welcome: new WelcomeService({
      db, mailer, log,
      loginUrl: (domain) => `${config.domainCheck.webUrl ?? `https://${domain}/`}#/pages/login/index?domain=${encodeURIComponent(domain)}`,
    }),
    branding: new BrandingService(db),
    companyLife: new CompanyLifeService({ db, blobs, mailer, log, listen, contacts: new ContactService(db, ingest.senderRules), calendarIcs: new CalendarIcsService(db), messages }),
    people,
    groups: new GroupService(db),
    quotaNotices: new QuotaNoticeService({ db, mailer, log }),
    audit,
    // Timeouts fire within the poll interval plus a round: well inside the ±1 min promise.
    auditRunner: new QueueRunner(() => audit.timeoutDue(), 15_000, log),
    companyLists: new CompanyListService({ db, log }),
    invites, inviteRunner,
    recipientClock,
  };
}
