import { dkimTxtRecord } from './company.service.js';

/** The DNS records a hosted domain needs published: the admin console and the west storefront's mailbox details show the same. */
export function domainRecords(d: { name: string; dkim_selector: string; dkim_public_key: string }, mailHost: string) {
  return {
    domain: d.name,
    records: [
      { name: d.name, type: 'MX' as const, value: `10 ${mailHost}.`, purpose: 'Receive mail for this domain here' },
      { name: `${d.dkim_selector}._domainkey.${d.name}`, type: 'TXT' as const, value: dkimTxtRecord(d.dkim_public_key), purpose: 'DKIM: lets receivers verify mail signed by this server' },
    ],
  };
}
