import { z } from 'zod';

/** A DNS record an administrator must publish for a hosted domain. */
export const DnsRecord = z.object({ name: z.string(), type: z.enum(['TXT', 'MX']), value: z.string(), purpose: z.string() });
export const DomainInfo = z.object({ domain: z.string(), records: z.array(DnsRecord) });
export const DomainList = z.object({ list: z.array(DomainInfo) });
export type DomainList = z.infer<typeof DomainList>;
