import { z } from 'zod';

// The company lifecycle's public surface (issue 19): the signed export download link.
// The storefront's own pages and routes (west-store) call the server functions directly.

export const ExportDownloadQuery = z.object({
  id: z.coerce.number().int().positive(),
  e: z.coerce.number().int().positive(),
  s: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
export type ExportDownloadQuery = z.infer<typeof ExportDownloadQuery>;
