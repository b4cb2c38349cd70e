import { envelope, WestCancelState, WestCompanyDetail, WestCompanyQuery, WestExportList } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { notFound } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { domainRecords } from '../admin/domain-records.js';
import { domainsOf } from '../admin/domain.repository.js';
import { suggestedDmarc, suggestedSpf } from '../domain-check/dns-check.js';
import { westCustomer } from '../west-account/west-guard.js';
import { cancellationStatus, leftoverBalance, requestCancellation, undoCancellation } from './cancel.service.js';
import { companyOverview } from './company-life.repository.js';
import { ensureExport, exportsOfCustomer, requestExport } from './export.service.js';

const west = { public: true, west: true } as const;

/**
 * MX and DKIM alone leave a new domain's mail to land in spam: the customer also needs SPF and DMARC,
 * with the same values the domain checker suggests (dns-check.ts), so both screens agree.
 */
function withPolicies(info: ReturnType<typeof domainRecords>, mailHost: string) {
  return {
    ...info,
    records: [
      ...info.records,
      { name: info.domain, type: 'TXT' as const, value: suggestedSpf(mailHost), purpose: 'SPF: names this server as a sender for the domain' },
      { name: `_dmarc.${info.domain}`, type: 'TXT' as const, value: suggestedDmarc(info.domain), purpose: 'DMARC: what receivers do with mail that fails SPF and DKIM' },
    ],
  };
}
const secs = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** The customer's side of the lifecycle: mailbox details, export, cancellation (every query scoped by the customer). */
export function companyLifeWestRoutes(app: App, db: Db, mailHost: string, now: () => Date = () => new Date()): void {
  const tags = ['west'];
  app.get('/h5/west/company-detail', { config: west, schema: { tags, querystring: WestCompanyQuery, response: { 200: envelope(WestCompanyDetail) } } }, async (req) => {
    const me = westCustomer(req);
    const c = await companyOverview(db, me.customerId, Number(req.query.companyId));
    if (!c) throw notFound('Company');
    return ok({
      id: String(c.id), name: c.name, plan: c.plan, seats: c.seats, usedSeats: c.seatsUsed, expiresAt: secs(c.expires_at),
      status: c.status as 'active' | 'readonly' | 'suspended', domains: (await domainsOf(db, c.id)).map((d) => withPolicies(domainRecords(d, mailHost), mailHost)),
    });
  });
  const exportList = async (customerId: number) =>
    ok({ list: (await exportsOfCustomer(db, customerId, now())).map((e) => ({ ...e, id: String(e.id), state: e.state })) });
  app.get('/h5/west/exports', { config: west, schema: { tags, response: { 200: envelope(WestExportList) } } }, async (req) => exportList(westCustomer(req).customerId));
  app.post('/h5/west/export', { config: west, schema: { tags, response: { 200: envelope(WestExportList) } } }, async (req) => {
    const me = westCustomer(req);
    await db.transaction().execute((trx) => requestExport(trx, me.customerId, now()));
    return exportList(me.customerId);
  });
  const cancelState = async (customerId: number) =>
    ok({ cancellation: await cancellationStatus(db, customerId), balanceCents: (await leftoverBalance(db, customerId)).balanceCents });
  app.get('/h5/west/cancel-status', { config: west, schema: { tags, response: { 200: envelope(WestCancelState) } } }, async (req) => cancelState(westCustomer(req).customerId));
  app.post('/h5/west/cancel', { config: west, schema: { tags, response: { 200: envelope(WestCancelState) } } }, async (req) => {
    const me = westCustomer(req);
    await db.transaction().execute(async (trx) => {
      await requestCancellation(trx, me.customerId, now());
      await ensureExport(trx, me.customerId, now());
    });
    return cancelState(me.customerId);
  });
  app.post('/h5/west/cancel-undo', { config: west, schema: { tags, response: { 200: envelope(WestCancelState) } } }, async (req) => {
    const me = westCustomer(req);
    await db.transaction().execute((trx) => undoCancellation(trx, me.customerId, now()));
    return cancelState(me.customerId);
  });
}
