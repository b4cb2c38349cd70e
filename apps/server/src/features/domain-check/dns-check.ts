import { promises as dns } from 'node:dns';
import type { CheckedRecord, RecordState } from '@mailwing/shared';
import { spf } from 'mailauth/lib/spf/index.js';
import { dkimTxtRecord } from '../admin/company.service.js';

// The DNS checks of the admin console (issue 17). Each record gets one of five states;
// the rules follow the careful checkers (Mail-in-a-Box, mailcow):
// - a timeout or SERVFAIL is `unverifiable`: it says nothing about the record;
// - only NXDOMAIN and NODATA are `missing`;
// - SPF is evaluated, not compared: our sending address must pass, includes and
//   redirects expanded within the 10-lookup limit (mailauth's evaluator, on our resolver);
// - DKIM is found by our selector, each record's TXT strings joined, compared by p=;
// - names are compared without case and without the trailing dot.

export type Lookup = (name: string, type: 'TXT' | 'MX' | 'A' | 'AAAA') => Promise<unknown>;

/** node:dns on the given servers (the system's when empty), one try each so a dead server costs one timeout. */
export function domainResolver(servers: string[], timeoutMs: number): Lookup {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  return (name, type) => resolver.resolve(name, type as 'TXT');
}

export interface Expected {
  domain: string;
  /** Our MX host, which also sends. */
  mailHost: string;
  /** The addresses our mail leaves from; empty: the mail host's A/AAAA. */
  sendingIps: string[];
  verifyToken: string;
  dkim: { selector: string; publicKey: string };
  /** A rotated key waiting to be published. */
  dkimNext?: { selector: string; publicKey: string } | null;
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.+$/, '');
const code = (err: unknown) => (err as { code?: string }).code ?? '';
/** NXDOMAIN and NODATA: the record is not there. Anything else (timeout, SERVFAIL, refused) proves nothing. */
const absent = (err: unknown) => ['ENOTFOUND', 'ENODATA'].includes(code(err));
const failNote = (err: unknown) => (code(err) === 'ETIMEOUT' ? 'dns.timeout' : 'dns.error');

export const ownershipName = (domain: string) => `_mailwing.${domain}`;
export const ownershipValue = (token: string) => `mailwing-verify=${token}`;
export const suggestedSpf = (mailHost: string) => `v=spf1 mx a:${bare(mailHost)} ~all`;
export const suggestedDmarc = (domain: string) => `v=DMARC1; p=quarantine; rua=mailto:postmaster@${domain}`;

type Answer = { ok: true; txt: string[]; mx: string[] } | { ok: false; state: RecordState; note: string };

async function txtAt(lookup: Lookup, name: string): Promise<Answer> {
  try {
    const rows = (await lookup(name, 'TXT')) as string[][];
    // A TXT record longer than 255 bytes arrives as several strings; the record is their concatenation (RFC 7208 §3.3, RFC 6376 §3.6.2.2).
    return { ok: true, txt: rows.map((r) => r.join('')), mx: [] };
  } catch (err) {
    return absent(err) ? { ok: true, txt: [], mx: [] } : { ok: false, state: 'unverifiable', note: failNote(err) };
  }
}

const record = (r: Omit<CheckedRecord, 'note'> & { note?: string | null }): CheckedRecord => ({ ...r, note: r.note ?? null });

async function checkMx(lookup: Lookup, e: Expected): Promise<CheckedRecord> {
  const base = { kind: 'mx' as const, type: 'MX' as const, name: e.domain, expected: `10 ${bare(e.mailHost)}` };
  let rows: { exchange: string; priority: number }[];
  try {
    rows = (await lookup(e.domain, 'MX')) as { exchange: string; priority: number }[];
  } catch (err) {
    if (!absent(err)) return record({ ...base, found: [], state: 'unverifiable', note: failNote(err) });
    rows = [];
  }
  const found = rows.sort((a, b) => a.priority - b.priority).map((r) => `${r.priority} ${bare(r.exchange)}`);
  if (rows.length === 0) return record({ ...base, found, state: 'missing' });
  const ours = rows.filter((r) => bare(r.exchange) === bare(e.mailHost));
  if (ours.length === 0) return record({ ...base, found, state: 'mismatch' });
  // Ours, but a lower-preference host of someone else takes the mail first.
  const best = Math.min(...rows.map((r) => r.priority));
  return record({ ...base, found, state: 'ok', note: ours.some((r) => r.priority === best) ? null : 'mx.not_preferred' });
}

async function checkOwnership(lookup: Lookup, e: Expected): Promise<CheckedRecord> {
  const name = ownershipName(e.domain);
  const expected = ownershipValue(e.verifyToken);
  const a = await txtAt(lookup, name);
  if (!a.ok) return record({ kind: 'ownership', type: 'TXT', name, expected, found: [], state: a.state, note: a.note });
  const state: RecordState = a.txt.length === 0 ? 'missing' : a.txt.some((t) => t.trim() === expected) ? 'ok' : 'mismatch';
  return record({ kind: 'ownership', type: 'TXT', name, expected, found: a.txt, state });
}

async function sendingAddresses(lookup: Lookup, e: Expected): Promise<string[] | null> {
  if (e.sendingIps.length > 0) return e.sendingIps;
  const ips: string[] = [];
  for (const type of ['A', 'AAAA'] as const) {
    try {
      ips.push(...((await lookup(bare(e.mailHost), type)) as string[]));
    } catch (err) {
      if (!absent(err)) return null;
    }
  }
  return ips;
}

async function checkSpf(lookup: Lookup, e: Expected): Promise<CheckedRecord> {
  const base = { kind: 'spf' as const, type: 'TXT' as const, name: e.domain, expected: suggestedSpf(e.mailHost) };
  const a = await txtAt(lookup, e.domain);
  if (!a.ok) return record({ ...base, found: [], state: a.state, note: a.note });
  const found = a.txt.filter((t) => /^v=spf1(\s|$)/i.test(t.trim()));
  if (found.length === 0) return record({ ...base, found, state: 'missing' });
  if (found.length > 1) return record({ ...base, found, state: 'syntax-error', note: 'spf.multiple' });
  const ips = await sendingAddresses(lookup, e);
  if (ips === null) return record({ ...base, found, state: 'unverifiable', note: 'spf.no_sending_address' });
  if (ips.length === 0) return record({ ...base, found, state: 'unverifiable', note: 'spf.no_sending_address' });
  // Every address we may send from must pass; the worst result speaks for the record.
  let worst: CheckedRecord | null = null;
  for (const ip of ips) {
    const res = await spf({
      sender: `postmaster@${e.domain}`, ip, helo: bare(e.mailHost), mta: bare(e.mailHost),
      resolver: lookup as never, maxResolveCount: 10,
    });
    const result = res.status.result;
    const comment = `${res.status.comment ?? ''} ${(res as { info?: string }).info ?? ''}`;
    const r: CheckedRecord = result === 'pass' ? record({ ...base, found, state: 'ok' })
      : result === 'temperror' ? record({ ...base, found, state: 'unverifiable', note: 'dns.timeout' })
        : result === 'permerror' ? record({ ...base, found, state: 'syntax-error', note: /lookup|resolve/i.test(comment) ? 'spf.too_many_lookups' : 'spf.invalid' })
          : result === 'none' ? record({ ...base, found, state: 'missing' })
            : record({ ...base, found, state: 'mismatch', note: `spf.${result}` });
    if (r.state !== 'ok') {
      worst = r;
      break;
    }
    worst = r;
  }
  return worst!;
}

/** The tags of a DKIM or DMARC record; null when it is not a tag list. */
function tags(value: string): Map<string, string> | null {
  const out = new Map<string, string>();
  for (const part of value.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    out.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return out;
}

async function checkDkim(lookup: Lookup, e: Expected, key: { selector: string; publicKey: string }, kind: 'dkim' | 'dkim-next'): Promise<CheckedRecord> {
  const name = `${key.selector}._domainkey.${e.domain}`;
  const base = { kind, type: 'TXT' as const, name, expected: dkimTxtRecord(key.publicKey) };
  const a = await txtAt(lookup, name);
  if (!a.ok) return record({ ...base, found: [], state: a.state, note: a.note });
  if (a.txt.length === 0) return record({ ...base, found: [], state: 'missing' });
  const parsed = a.txt.map(tags);
  const keys = parsed.filter((t): t is Map<string, string> => t !== null && t.has('p') && (!t.has('v') || t.get('v') === 'DKIM1'));
  if (keys.length === 0) return record({ ...base, found: a.txt, state: 'syntax-error' });
  if (keys.some((t) => t.get('p') === key.publicKey)) return record({ ...base, found: a.txt, state: 'ok' });
  return record({ ...base, found: a.txt, state: 'mismatch', note: keys.some((t) => t.get('p') === '') ? 'dkim.revoked' : null });
}

async function checkDmarc(lookup: Lookup, e: Expected): Promise<CheckedRecord> {
  const name = `_dmarc.${e.domain}`;
  const base = { kind: 'dmarc' as const, type: 'TXT' as const, name, expected: suggestedDmarc(e.domain) };
  const a = await txtAt(lookup, name);
  if (!a.ok) return record({ ...base, found: [], state: a.state, note: a.note });
  const found = a.txt.filter((t) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(t.trim()));
  if (found.length === 0) return record({ ...base, found: a.txt, state: 'missing' });
  // RFC 7489 §6.6.3: more than one DMARC record means none applies.
  if (found.length > 1) return record({ ...base, found, state: 'syntax-error', note: 'dmarc.multiple' });
  const t = tags(found[0]!);
  const p = t?.get('p')?.toLowerCase();
  if (!t || !p || !['none', 'quarantine', 'reject'].includes(p)) return record({ ...base, found, state: 'syntax-error' });
  // Published and valid, but it asks receivers to do nothing with failures: shown as a warning.
  return record({ ...base, found, state: 'ok', note: p === 'none' ? 'dmarc.policy_none' : null });
}

/** Checks every record of one domain, all at once. */
export async function checkDomain(lookup: Lookup, raw: Expected): Promise<CheckedRecord[]> {
  const e = { ...raw, domain: bare(raw.domain) };
  const checks = [checkOwnership(lookup, e), checkMx(lookup, e), checkSpf(lookup, e), checkDkim(lookup, e, e.dkim, 'dkim')];
  if (e.dkimNext) checks.push(checkDkim(lookup, e, e.dkimNext, 'dkim-next'));
  checks.push(checkDmarc(lookup, e));
  return Promise.all(checks);
}
