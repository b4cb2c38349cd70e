import {
  BackupEmailCodeInput, BackupEmailInput, ChangePasswordInput, CodeInput, CodeSent, Device, DeviceIdInput, Empty, envelope, PasswordInput,
  RecoveryCodes, ResetPasswordInput, ResetTicket, ResetWayInput, ResetWays, SecurityQuestionInput, SecurityState, SecVerifyInput, SessionResult,
  TicketInput, TotpSetup, VerifyResetInput,
} from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { DevicesService } from './devices.service.js';
import type { ResetService } from './reset.service.js';
import type { SecurityService } from './security.service.js';
import type { VerifyService } from './verify.service.js';

export interface SecurityServices { verify: VerifyService; reset: ResetService; security: SecurityService; devices: DevicesService }

const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

/**
 * Issue 7, part 1 (the route list is in packages/shared/src/schemas/security.ts).
 * Failures: a wrong code, answer or password is 403; an unknown, expired or used
 * ticket is 404 with `expired: true` (not 401, which would sign a binding user out);
 * a ticket with five wrong codes behind it is 429 ("log in again"); limits are 429 with retryAfter.
 */
export function securityRoutes(app: App, s: SecurityServices): void {
  const tags = ['security'];
  const pub = { public: true };

  app.post('/h5/login/secverify', { config: pub, schema: { tags, body: SecVerifyInput, response: { 200: envelope(SessionResult) } } }, async (req) =>
    ok(await s.verify.verify(req.body, client(req))));
  app.post('/h5/login/sec-email-code', { config: pub, schema: { tags, body: TicketInput, response: { 200: envelope(CodeSent) } } }, async (req) =>
    ok(await s.verify.sendCode(req.body, client(req))));

  app.post('/h5/login/resetway', { config: pub, schema: { tags, body: ResetWayInput, response: { 200: envelope(ResetWays) } } }, async (req) =>
    ok(await s.reset.ways(req.body, req.ip)));
  app.post('/h5/login/reset-code', { config: pub, schema: { tags, body: ResetWayInput, response: { 200: envelope(CodeSent) } } }, async (req) =>
    ok(await s.reset.sendCode(req.body, req.ip)));
  app.post('/h5/login/verify-reset', { config: pub, schema: { tags, body: VerifyResetInput, response: { 200: envelope(ResetTicket) } } }, async (req) =>
    ok(await s.reset.verify(req.body, req.ip)));
  app.post('/h5/login/resetpwd', { config: pub, schema: { tags, body: ResetPasswordInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await s.reset.resetPassword(req.body);
    return ok({});
  });

  app.get('/h5/setting/security', { schema: { tags, response: { 200: envelope(SecurityState) } } }, async (req) =>
    ok(await s.security.state(caller(req))));
  app.post('/h5/setting/totp-begin', { schema: { tags, body: PasswordInput, response: { 200: envelope(TotpSetup) } } }, async (req) =>
    ok(await s.security.totpBegin(caller(req), req.body)));
  app.post('/h5/setting/totp-enable', { schema: { tags, body: CodeInput, response: { 200: envelope(RecoveryCodes) } } }, async (req) =>
    ok(await s.security.totpEnable(caller(req), req.body)));
  app.post('/h5/setting/totp-disable', { schema: { tags, body: PasswordInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await s.security.totpDisable(caller(req), req.body);
    return ok({});
  });
  app.post('/h5/setting/recovery-codes', { schema: { tags, body: PasswordInput, response: { 200: envelope(RecoveryCodes) } } }, async (req) =>
    ok(await s.security.recoveryCodes(caller(req), req.body)));
  app.post('/h5/setting/backup-email-code', { schema: { tags, body: BackupEmailCodeInput, response: { 200: envelope(CodeSent) } } }, async (req) =>
    ok(await s.security.backupEmailCode(caller(req), req.body, req.ip)));
  app.post('/h5/setting/backup-email', { schema: { tags, body: BackupEmailInput, response: { 200: envelope(SecurityState) } } }, async (req) =>
    ok(await s.security.setBackupEmail(caller(req), req.body)));
  app.post('/h5/setting/security-question', { schema: { tags, body: SecurityQuestionInput, response: { 200: envelope(SecurityState) } } }, async (req) =>
    ok(await s.security.setQuestion(caller(req), req.body)));
  app.post('/h5/setting/password', { schema: { tags, body: ChangePasswordInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await s.security.changePassword(caller(req), req.body);
    return ok({});
  });
  app.post('/h5/setting/verify-password', { schema: { tags, body: PasswordInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await s.security.verifyPassword(caller(req), req.body);
    return ok({});
  });

  app.get('/h5/setting/devices', { schema: { tags, response: { 200: envelope(z.array(Device)) } } }, async (req) =>
    ok(await s.devices.list(caller(req))));
  app.post('/h5/setting/device-logout', { schema: { tags, body: DeviceIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await s.devices.logout(caller(req), req.body.id);
    return ok({});
  });
}
