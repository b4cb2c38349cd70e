import type { WestCancelState, WestCompanyDetail, WestExport, WestOrder, WestPlan, WestQuote } from '@mailwing/shared';
import { westGet, westPost } from './west';

// The company lifecycle's storefront calls (issue 19 §6–7): mailbox details, renew / add seats, export, cancel.
export const westLifeApi = {
  detail: (companyId: string) => westGet<WestCompanyDetail>('/company-detail', { companyId }),
  plans: () => westGet<{ list: WestPlan[] }>('/plans'),
  quote: (planId: string, seats: number, years: number) => westPost<WestQuote>('/quote', { planId, seats, years }),
  seatsQuote: (companyId: string, seats: number) => westGet<WestQuote>('/seats-quote', { companyId, seats }),
  renew: (companyId: string, years: number, priceCents: number) => westPost<WestOrder>('/renew', { companyId, years, priceCents }),
  addSeats: (companyId: string, seats: number, priceCents: number) => westPost<WestOrder>('/add-seats', { companyId, seats, priceCents }),
  exports: (quiet = false) => westGet<{ list: WestExport[] }>('/exports', undefined, quiet),
  requestExport: () => westPost<{ list: WestExport[] }>('/export'),
  cancelStatus: (quiet = false) => westGet<WestCancelState>('/cancel-status', undefined, quiet),
  cancel: () => westPost<WestCancelState>('/cancel'),
  undo: () => westPost<WestCancelState>('/cancel-undo'),
};
