import type { Readable } from 'node:stream';
import { domainToUnicode } from 'node:url';
import type { DNSResolver } from 'mailauth';
import type { Logger } from 'pino';
import { SystemFolder } from '@mailwing/shared';
import { domainKey } from '../features/account/account.repository.js';
import type { HostedDomains } from '../features/account/hosted-domains.js';
import type { LocalRecipient } from '../features/message/ingest.service.js';
import type { Db } from '../db/connect.js';
import type { StoredAuthResults } from '../db/types.js';
import { domainOf, domainsOf, headerFromAddresses } from './header-from.js';
import { authInput, senderCheck, type SenderAuthResult, type SenderCheck } from './sender-auth.js';

/** An SMTP refusal: code, enhanced status and text, and a stable reason for the logs. */
export interface Refusal { code: number; text: string; reason: string }

/** The client as the SMTP session saw it. */
export interface Peer { ip: string; helo: string; mailFrom: string }

/** A message too big to hold in memory (smtp-receiver spools it): read again from the start as often as needed. */
export interface MessageSource {
  head(bytes: number): Promise<Buffer>;
  stream(): Readable;
}

/** `header` goes on top of the stored message: `withAuthResults` puts it there. */
/**
 * `fromAddresses` are the header From's addresses, read once here for the company lists
 * too: reading them costs ~5 % of the SMTP thread per mail (issue 13).
 */
export type Screened = { refuse: Refusal } | { header: string; recipients: LocalRecipient[]; fromAddresses: string[] };

// The header From is read from at most this much of the header block.
const HEADER_BYTES = 1024 * 1024;

export interface InboundAuthDeps {
  db: Db;
  domains: HostedDomains;
  resolver: DNSResolver;
  /** Our name in Authentication-Results (RFC 8601 authserv-id) and in SPF comments. */
  hostname: string;
  deadlineMs: number;
  log: Logger;
  /** 0 ≤ n < 1, for DMARC pct sampling; tests pin it. */
  random?: () => number;
}

const SPAM = Number(SystemFolder.Spam);

// Relaxed alignment (RFC 7489 §3.1): one name inside the other. Coarser than the
// organisational-domain rule at sibling subdomains, which only matters without DMARC.
const aligned = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

/**
 * Sender authentication for mail that comes in through MX (issue 12, finding 6).
 *
 * - Our own users never send through MX: compose delivers their mail locally. So a
 *   hosted domain in MAIL FROM is refused at once, and one in a header From is
 *   refused after DATA, unless the mail carries a valid DKIM signature made with
 *   that domain's own key (ours): a colleague's mail that came back through an
 *   outside list or forwarder. That is genuine but went through outside hands, so
 *   it goes to Spam marked external, not to the Inbox looking internal.
 * - SPF, DKIM and DMARC through mailauth. DMARC p=reject failures are refused,
 *   p=quarantine failures go to Spam. A DNS failure or the deadline accepts the mail
 *   as temperror: losing mail to a slow resolver is worse than showing "none".
 * - The Authentication-Results header (RFC 8601) is prepended to the stored message
 *   and the verdict is kept with each copy for the read page.
 */
export class InboundAuth {
  private readonly random: () => number;
  private readonly check: SenderCheck;

  constructor(private readonly d: InboundAuthDeps) {
    this.random = d.random ?? Math.random;
    this.check = senderCheck(d.resolver);
  }

  /** At MAIL FROM: null when the envelope sender may go on. */
  async checkEnvelope(mailFrom: string): Promise<Refusal | null> {
    if (!mailFrom.includes('@')) return null; // the null sender of bounces (RFC 5321 §4.5.5)
    if (!(await this.hosted(domainOf(mailFrom)))) return null;
    return {
      code: 550, reason: 'smtp.hosted_sender',
      text: `5.7.1 <${mailFrom}>: this domain is hosted here, and its mail never arrives from outside`,
    };
  }

  /**
   * After DATA: refuse the mail, or give the header to prepend and the recipients to store.
   * `checked` is mailauth's answer for `raw` already under way elsewhere (a parse worker,
   * IngestService.prepare); without it mailauth runs here.
   */
  async screen(raw: Buffer | MessageSource, peer: Peer, recipients: LocalRecipient[], checked?: Promise<SenderAuthResult>): Promise<Screened> {
    const head = Buffer.isBuffer(raw) ? raw : await raw.head(HEADER_BYTES);
    const fromAddresses = headerFromAddresses(head);
    const claimed = await this.hostedAmong(domainsOf(fromAddresses));
    const res = await this.authenticate(checked ? { run: checked } : this.runHere(raw, head, peer), peer);
    const dkimPass = res ? res.dkim.results.filter((r) => r.status.result === 'pass' && !r.status.underSized) : [];
    let quarantine = false;

    if (claimed.length > 0) {
      // Our own key could not be looked up: a later try may find it.
      if (!res) return this.refuse({ code: 451, reason: 'smtp.auth_unavailable', text: '4.7.0 Cannot check the sender now, try again later' }, peer);
      if (!(await this.allSignedByUs(claimed, dkimPass))) {
        return this.refuse({ code: 550, reason: 'smtp.hosted_from', text: `5.7.1 From: names ${claimed.join(', ')}, a domain hosted here; its mail never arrives from outside` }, peer);
      }
      quarantine = true;
    }

    const results = summarise(res, dkimPass);
    if (res?.dmarc && res.dmarc.status.result === 'fail') {
      const policy = this.applied(res.dmarc.policy, res.dmarc.pct);
      results.policy = policy;
      if (policy === 'reject') {
        return this.refuse({ code: 550, reason: 'smtp.dmarc_reject', text: `5.7.1 Rejected by the DMARC policy of ${results.fromDomain}` }, peer);
      }
      if (policy === 'quarantine') quarantine = true;
    }
    results.action = quarantine ? 'quarantine' : 'deliver';

    const header = res?.headers ?? `Authentication-Results: ${this.d.hostname}; spf=temperror; dkim=temperror; dmarc=temperror\r\n`;
    return {
      header,
      fromAddresses,
      recipients: recipients.map((r) => ({ ...r, folderMid: quarantine ? SPAM : r.folderMid, auth: results })),
    };
  }

  /** `head` is the message, or the start of a big one (its header block, when that fits). */
  private runHere(raw: Buffer | MessageSource, head: Buffer, peer: Peer): { run: Promise<SenderAuthResult>; end?: () => void } {
    const withMta = { ...peer, mta: this.d.hostname };
    // The check cuts a message in memory to its header block itself (authInput).
    if (Buffer.isBuffer(raw)) return { run: this.check(raw, withMta) };
    // A big one: an unsigned message needs only its header block; a signed one streams through mailauth's body hashes.
    const block = authInput(head);
    const input = block !== head ? block : raw.stream();
    const run = this.check(input, withMta);
    if (Buffer.isBuffer(input)) return { run };
    // Past the deadline mailauth may still be reading; an error (not a bare destroy) lets its promise settle.
    return { run, end: () => { if (!input.readableEnded) input.destroy(new Error('sender authentication ended')); } };
  }

  /** mailauth's answer, or null (temperror) when it failed or missed the deadline. */
  private async authenticate({ run, end }: { run: Promise<SenderAuthResult>; end?: () => void }, peer: Peer): Promise<SenderAuthResult | null> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), this.d.deadlineMs); });
    try {
      const res = await Promise.race([run, deadline]);
      if (!res) this.d.log.warn({ ip: peer.ip, reason: 'smtp.auth_deadline' }, 'sender authentication ran out of time; accepted as temperror');
      return res;
    } catch (err) {
      this.d.log.warn({ err, ip: peer.ip, reason: 'smtp.auth_error' }, 'sender authentication failed; accepted as temperror');
      return null;
    } finally {
      clearTimeout(timer);
      end?.();
      // A late answer or failure after the deadline is nobody's concern.
      run.catch(() => undefined);
    }
  }

  /** RFC 7489 §6.6.4: with pct below 100, the rest of the failures get the next policy down. */
  private applied(policy: string | undefined, pct: number | undefined): string {
    const p = (policy ?? 'none').toLowerCase();
    if (pct === undefined || pct >= 100 || this.random() * 100 < pct) return p;
    return p === 'reject' ? 'quarantine' : 'none';
  }

  private async hosted(domain: string): Promise<boolean> {
    if (!domain) return false;
    const unicode = domainToUnicode(domain);
    return (await this.d.domains.has(domain)) || (unicode !== domain && (await this.d.domains.has(unicode)));
  }

  private async hostedAmong(domains: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const d of domains) if (await this.hosted(d)) out.push(d);
    return out;
  }

  /** Each claimed domain has a passing signature by itself with the selector we sign with. */
  private async allSignedByUs(claimed: string[], dkimPass: SenderAuthResult['dkim']['results']): Promise<boolean> {
    for (const domain of claimed) {
      const key = await domainKey(this.d.db, domain) ?? await domainKey(this.d.db, domainToUnicode(domain));
      const ok = key && dkimPass.some((r) => r.signingDomain?.toLowerCase() === domain && r.selector === key.dkim_selector);
      if (!ok) return false;
    }
    return true;
  }

  private refuse(refusal: Refusal, peer: Peer): Screened {
    this.d.log.info({ ip: peer.ip, mailFrom: peer.mailFrom, reason: refusal.reason }, 'inbound mail refused');
    return { refuse: refusal };
  }
}

/**
 * Our results go on top of the message (RFC 8601 §5), under the Return-Path our own
 * trace headers start with, since final delivery puts that first (RFC 5321 §4.4).
 */
export function withAuthResults(raw: Buffer, header: string): Buffer {
  const first = raw.indexOf('\r\n');
  const at = /^Return-Path:/i.test(raw.subarray(0, 12).toString('latin1')) && first > 0 ? first + 2 : 0;
  return Buffer.concat([raw.subarray(0, at), Buffer.from(header, 'latin1'), raw.subarray(at)]);
}

/** What the read page and later checks need of mailauth's answer. */
function summarise(res: SenderAuthResult | null, dkimPass: SenderAuthResult['dkim']['results']): StoredAuthResults {
  const fromDomain = res?.dkim.headerFrom.length === 1 ? domainOf(res.dkim.headerFrom[0]!) : '';
  const spf = res ? (res.spf ? res.spf.status.result : 'none') : 'temperror';
  const dkimResults = res?.dkim.results ?? [];
  const dkim = !res ? 'temperror'
    : dkimPass.length > 0 ? 'pass'
      : dkimResults.some((r) => r.status.result === 'fail') ? 'fail' : (dkimResults[0]?.status.result ?? 'none');
  const dmarc = !res ? 'temperror' : res.dmarc ? res.dmarc.status.result : 'none';
  const dkimDomain = dkimPass.find((r) => fromDomain && aligned(r.signingDomain.toLowerCase(), fromDomain))?.signingDomain.toLowerCase() ?? null;
  const spfDomain = res?.spf ? res.spf.domain.toLowerCase() : '';
  const spfAligned = spf === 'pass' && fromDomain !== '' && aligned(spfDomain, fromDomain);
  const verdict = dmarc === 'pass' ? 'pass'
    : dmarc === 'fail' ? 'fail'
      : dkimDomain || spfAligned ? 'pass'
        // Without DMARC only a hard SPF fail (-all) is the domain saying "not mine".
        : spf === 'fail' && dkimPass.length === 0 ? 'fail' : 'none';
  return { external: true, verdict, spf, dkim, dmarc, dkimDomain, fromDomain, policy: null, action: 'deliver' };
}
