import { existsSync } from 'node:fs';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { allReasonCodes, APP_VERSION } from '@mailwing/shared';
import { adminRoutes } from './features/admin/admin.routes.js';
import { domainCheckRoutes } from './features/domain-check/domain-check.routes.js';
import { welcomeRoutes } from './features/welcome/welcome.routes.js';
import { brandingRoutes } from './features/branding/branding.routes.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { composeRoutes } from './features/compose/compose.routes.js';
import { eventsRoutes } from './features/events/events.routes.js';
import { contactRoutes } from './features/contact/contact.routes.js';
import { directoryRoutes } from './features/directory/directory.routes.js';
import { searchRoutes } from './features/search/search.routes.js';
import { securityRoutes } from './features/security/security.routes.js';
import { tagRoutes } from './features/tag/tag.routes.js';
import { calendarRoutes } from './features/calendar/calendar.routes.js';
import { mailboxLinkRoutes } from './features/mailbox-link/mailbox-link.routes.js';
import { pushRoutes } from './features/push/push.routes.js';
import { settingRoutes } from './features/setting/setting.routes.js';
import { wechatRoutes } from './features/wechat/wechat.routes.js';
import { mailRuleRoutes } from './features/mail-rule/mail-rule.routes.js';
import { collectRoutes } from './features/collect/collect.routes.js';
import { migrateRoutes } from './features/migrate/migrate.routes.js';
import { announcementRoutes } from './features/announcement/announcement.routes.js';
import { mailboxRoutes } from './features/mailbox/mailbox.routes.js';
import { messageRoutes } from './features/message/message.routes.js';
import { systemRoutes } from './features/system/system.routes.js';
import { signatureRoutes } from './features/signature/signature.routes.js';
import { templateRoutes } from './features/template/template.routes.js';
import { diskRoutes } from './features/disk/disk.routes.js';
import { diskTusRoutes } from './features/disk/disk-tus.routes.js';
import { shareRoutes } from './features/disk/share.routes.js';
import { noteRoutes } from './features/note/note.routes.js';
import { undoSendRoutes } from './features/undo-send/undo-send.routes.js';
import { conversationRoutes } from './features/conversation/conversation.routes.js';
import { companyLifeRoutes } from './features/company-life/company-life.routes.js';
import { companyLifeWestRoutes } from './features/company-life/company-life-west.routes.js';
import { westAccountRoutes } from './features/west-account/west-account.routes.js';
import { installWestGuard } from './features/west-account/west-guard.js';
import { westPayRoutes } from './features/west-pay/west-pay.routes.js';
import { westShopRoutes } from './features/west-shop/west-shop.routes.js';
import { peopleRoutes } from './features/people/people.routes.js';
import { groupRoutes } from './features/group/group.routes.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { companyListRoutes } from './features/company-list/company-list.routes.js';
import { authHook } from './http/auth-hook.js';
import { documentIdempotencyHeader, installIdempotency } from './features/idempotency/idempotency.hook.js';
import { errorHandler } from './http/error-handler.js';
import { rejectNulBytes } from './http/reject-nul.js';
import { responseSerializerCompiler } from './http/serializer.js';
import { securityHeadersWith } from './http/security-headers.js';
import type { App } from './http/types.js';
import { outboundGuard } from './net/guarded-fetch.js';
import type { Services } from './services.js';
import { redactUrl } from './http/redact-url.js';

/**
 * Built files under assets/ carry a content hash in their name, so they never change:
 * cache them for a year. Everything else (index.html, sw.js, the manifest, icons)
 * names the current build and is revalidated on every load, so a deploy is seen at once.
 */
export function staticCacheControl(file: string): string {
  return /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}
import { devClockRoutes } from './features/dev-clock/dev-clock.js';
import { inviteRoutes } from './features/calendar/invite.routes.js';
import { locationRoutes } from './features/location/location.routes.js';
import { LocationService } from './features/location/location.service.js';

/** A Fastify instance with every route, and no side effects: tests call inject() or listen() on it. */
export async function buildApp(services: Services, opts: { logger?: FastifyServerOptions['logger'] } = {}): Promise<App> {
  const { config } = services;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    // Slowloris: Fastify turns Node's request timeout off by default; a client that trickles
    // its headers or body is cut off instead of holding a socket for ever (issue 12).
    requestTimeout: config.http.requestTimeoutMs,
    http: { headersTimeout: config.http.headersTimeoutMs, requestTimeout: config.http.requestTimeoutMs, connectionsCheckingInterval: config.http.checkIntervalMs },
    // Logs carry a request id but never the token in the query (DESIGN.md).
    requestIdHeader: false,
    trustProxy: false,
    // Fastify's own request logging writes two lines per request at info level; one
    // line at debug (below) says the same and keeps an info log for events that matter.
    logController: new LogController({ disableRequestLogging: true }),
    // Spec §7 names one path with a doubled slash (//login/app-email-select).
    routerOptions: { ignoreDuplicateSlashes: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checked: !config.production }));
  app.setErrorHandler(errorHandler);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', securityHeadersWith([config.map.tileOrigin]));
  app.addHook('onResponse', (req, reply, done) => {
    // Asked first: with debug off, building the line (redacting the URL) was about 1 % of a list request's CPU.
    if (req.log.level === 'debug' || req.log.level === 'trace') {
      req.log.debug({ method: req.method, url: redactUrl(req.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
  });
  app.addHook('preValidation', rejectNulBytes);
  // Before validation: the zod querystring schemas drop the `t` parameter.
  app.addHook('preValidation', authHook(services.auth));
  // Issue 15: an Idempotency-Key on a signed-in POST makes a retry return the first answer.
  installIdempotency(app, services.db, { now: () => services.idempotencyClock.now() });

  await app.register(formbody);
  // One file per upload request; the per-file limit stops reading at the limit, not after.
  // preservePath: a name like "a/b.txt" arrives whole and is refused (spec §5), not silently cut to "b.txt".
  await app.register(multipart, { preservePath: true, limits: { fileSize: config.attachments.maxFileBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Mailwing H5 API', version: APP_VERSION },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        // API.md: every refusal's `reason` is one of these codes, listed in packages/shared and here.
        schemas: { Reason: { type: 'string', enum: [...allReasonCodes] } },
      },
    },
    transform: documentIdempotencyHeader(jsonSchemaTransform),
  });

  systemRoutes(app);
  if (services.devClock) devClockRoutes(app, services.devClock, () => services.queue.wake());
  authRoutes(app, services.auth);
  mailboxRoutes(app, services.mailbox);
  messageRoutes(app, services.messages, { images: outboundGuard(config.outbound, config.imageProxyAllowPrivate) });
  composeRoutes(app, services.compose, services.uploads);
  adminRoutes(app, services.db, config.smtp.hostname);
  tagRoutes(app, services.tags);
  searchRoutes(app, services.search);
  eventsRoutes(app, services.events, services.mailbox);
  contactRoutes(app, services.contacts);
  directoryRoutes(app, services.directory);
  settingRoutes(app, services.settings);
  pushRoutes(app, services.push);
  mailboxLinkRoutes(app, services.links);
  mailRuleRoutes(app, services.mailRules, services.rules.autoReply, () => services.ruleJobs.wake());
  wechatRoutes(app, services.wechat);
  securityRoutes(app, services);
  signatureRoutes(app, services.signatures);
  templateRoutes(app, services.templates);
  collectRoutes(app, services.collect);
  diskRoutes(app, services.disk, services.quota, services.blobs);
  shareRoutes(app, services.shares, services.blobs);
  await diskTusRoutes(app, services.diskUploads);
  noteRoutes(app, services.notes);
  calendarRoutes(app, services.calendar, services.calendarIcs);
  domainCheckRoutes(app, services.domainChecks);
  welcomeRoutes(app, services.welcome);
  brandingRoutes(app, services.branding);
  undoSendRoutes(app, services.compose, services.db);
  conversationRoutes(app, services.conversations);
  companyLifeRoutes(app, services.db, services.blobs);
  companyLifeWestRoutes(app, services.db, config.smtp.hostname);
  installWestGuard(app, services.westAccounts);
  westAccountRoutes(app, services.westAccounts, services.westCaptcha);
  await westPayRoutes(app, services.westPay);
  westShopRoutes(app, services.westShop);
  peopleRoutes(app, services.people);
  groupRoutes(app, services.people, services.groups);
  auditRoutes(app, services.audit, services.people);
  companyListRoutes(app, services.companyLists, services.people);
  inviteRoutes(app, services.invites);
  migrateRoutes(app, services.migrate, () => services.migrateRunner.wake(), services.people);
  announcementRoutes(app, services.announcements, services.people);
  locationRoutes(app, new LocationService(config.map, outboundGuard(config.outbound), services.uploads));

  if (existsSync(config.webDist)) {
    // wildcard: files are looked up per request, so a rebuilt client is served without a restart.
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      index: ['index.html'],
      allowedPath: (p) => !p.startsWith('/h5/'),
      // The build writes .br/.gz beside each text file (vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => reply.header('Cache-Control', staticCacheControl(file)),
    });
  } else {
    app.get('/', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
      reply.type('text/plain').send('Mailwing is running. The web client is not built: run `npm run build`.'));
  }
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: 404, error: `No route ${req.method} ${req.url.split('?')[0]}`, reason: 'route.not_found' });
  });
  return app;
}
