import {
  envelope, WestAddSeatsInput, WestBuyInput, WestBuyQuoteInput, WestCompanyList, WestOrder, WestOrderPage, WestPageQuery, WestPlanList, WestQuote, WestRenewInput,
} from '@mailwing/shared';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { westCustomer } from '../west-account/west-guard.js';
import type { WestShopService } from './west-shop.service.js';

const west = { public: true, west: true } as const;
const SeatsQuoteQuery = z.object({ companyId: z.string().regex(/^\d{1,15}$/), seats: z.coerce.number().int().min(1).max(100_000) });

export function westShopRoutes(app: App, shop: WestShopService): void {
  const tags = ['west'];
  app.get('/h5/west/plans', { config: { public: true }, schema: { tags, response: { 200: envelope(WestPlanList) } } }, async () => ok({ list: await shop.plans() }));
  app.post('/h5/west/quote', { config: { public: true }, schema: { tags, body: WestBuyQuoteInput, response: { 200: envelope(WestQuote) } } }, async (req) =>
    ok(await shop.quote(req.body)));
  app.get('/h5/west/seats-quote', { config: west, schema: { tags, querystring: SeatsQuoteQuery, response: { 200: envelope(WestQuote) } } }, async (req) =>
    ok(await shop.seatsQuote(westCustomer(req).customerId, Number(req.query.companyId), req.query.seats)));
  app.post('/h5/west/buy', { config: west, schema: { tags, body: WestBuyInput, response: { 200: envelope(WestOrder) } } }, async (req) =>
    ok(await shop.buy(westCustomer(req).customerId, req.body)));
  app.post('/h5/west/renew', { config: west, schema: { tags, body: WestRenewInput, response: { 200: envelope(WestOrder) } } }, async (req) =>
    ok(await shop.renew(westCustomer(req).customerId, req.body)));
  app.post('/h5/west/add-seats', { config: west, schema: { tags, body: WestAddSeatsInput, response: { 200: envelope(WestOrder) } } }, async (req) =>
    ok(await shop.addSeats(westCustomer(req).customerId, req.body)));
  app.get('/h5/west/orders', { config: west, schema: { tags, querystring: WestPageQuery, response: { 200: envelope(WestOrderPage) } } }, async (req) =>
    ok(await shop.orders(westCustomer(req).customerId, req.query.page, req.query.size)));
  app.get('/h5/west/companies', { config: west, schema: { tags, response: { 200: envelope(WestCompanyList) } } }, async (req) =>
    ok({ list: await shop.companies(westCustomer(req).customerId) }));
}
