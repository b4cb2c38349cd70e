import { z } from 'zod';
import { DomainInfo } from './admin.js';

// The company lifecycle's public surface (issue 19): the signed export download link.
// The storefront's own pages and routes (west-store) call the server functions directly.

export const ExportDownloadQuery = z.object({
  id: z.coerce.number().int().positive(),
  e: z.coerce.number().int().positive(),
  s: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
export type ExportDownloadQuery = z.infer<typeof ExportDownloadQuery>;

export const WestCompanyQuery = z.object({ companyId: z.string().regex(/^\d{1,15}$/) });
export const WestCompanyDetail = z.object({
  id: z.string(), name: z.string(), plan: z.string(), seats: z.number().int(), usedSeats: z.number().int(),
  expiresAt: z.number().int().nullable(), status: z.enum(['active', 'readonly', 'suspended']), domains: z.array(DomainInfo),
});
export type WestCompanyDetail = z.infer<typeof WestCompanyDetail>;
export const WestExport = z.object({
  id: z.string(), state: z.enum(['pending', 'done', 'failed', 'expired']), size: z.number().int(), link: z.string().nullable(),
  linkExpiresAt: z.number().int().nullable(), createdAt: z.number().int(), downloads: z.number().int(),
});
export type WestExport = z.infer<typeof WestExport>;
export const WestExportList = z.object({ list: z.array(WestExport) });
export const WestCancelState = z.object({
  cancellation: z.object({ state: z.enum(['pending', 'undone', 'purged']), requestedAt: z.number().int(), purgeAt: z.number().int() }).nullable(),
  balanceCents: z.number().int(),
});
export type WestCancelState = z.infer<typeof WestCancelState>;
