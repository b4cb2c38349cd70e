import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import libmime from 'libmime';
import { dkimVerify, dmarc, spf, type DKIMVerifyResult, type DMARCResult, type DNSResolver, type SPFResult } from 'mailauth';
import { TtlCache } from '../cache/ttl-cache.js';

/** What mailauth needs of the SMTP session besides the message. */
export interface AuthPeer { ip: string; helo: string; mailFrom: string; mta: string }

/**
 * What InboundAuth judges: mailauth's `authenticate()` answer without ARC, BIMI and the
 * Received chain, which decide nothing here. It crosses from a parse worker as a
 * structured clone, so it carries only what is read.
 */
export interface SenderAuthResult {
  dkim: Pick<DKIMVerifyResult, 'results' | 'headerFrom'>;
  spf: SPFResult | false;
  dmarc: DMARCResult | false;
  /** Received-SPF and Authentication-Results, each ending in CRLF, to put on top of the message. */
  headers: string;
}

export type SenderCheck = (raw: Buffer | Readable, peer: AuthPeer) => Promise<SenderAuthResult>;

// An SPF answer is kept as long as the DNS answers it was made from may be (auth-dns.ts).
const SPF_CACHE_MS = 30_000;
const SPF_CACHE_MAX = 10_000;

/**
 * SPF, DKIM and DMARC of one message with mailauth's checks. No database: it runs where
 * the caller is, on the main thread (a spooled message, or no parse workers) or in a
 * parse worker beside the MIME parse (parse-pool.ts). InboundAuth judges the result.
 *
 * mailauth's `authenticate()` runs the same three checks (ARC and BIMI are off here) and
 * joins their lines the same way; it is not called because its SPF cannot be kept (issue
 * 13). SPF depends only on the client's IP, HELO and MAIL FROM and on DNS: every mail of a
 * connection, and of a bulk sender, asks the same, and re-evaluating it (record parsing,
 * joi's domain checks, header formatting), with the Received chain `authenticate()` also
 * parses, was 0.24 of its 0.36 ms per unsigned mail. A kept answer is an answer made from
 * DNS answers the resolver would still give from its cache; a temperror is never kept.
 */
export function senderCheck(resolver: DNSResolver, now: () => number = Date.now): SenderCheck {
  const kept = new TtlCache<string, SPFResult>(SPF_CACHE_MS, SPF_CACHE_MAX, now);

  const spfOf = async (ip: string, helo: string, sender: string | undefined, mta: string): Promise<SPFResult> => {
    try {
      return await kept.get(`${ip} ${helo} ${sender ?? ''} ${mta}`, async () => {
        const result = await spf({ ip, helo, sender, mta, resolver });
        // A failed load is not kept (TtlCache): a temperror leaves as one and is answered below.
        if (result.status.result === 'temperror') throw new Temporary(result);
        return result;
      });
    } catch (err) {
      if (err instanceof Temporary) return err.result;
      throw err;
    }
  };

  return async (raw, peer) => {
    const sender = peer.mailFrom || undefined;
    const dkim = await dkimVerify(Buffer.isBuffer(raw) ? authInput(raw) : raw, { resolver, sender });
    // As authenticate() does: no HELO is the IP, and an IP is written as an address literal.
    const helo = peer.helo || peer.ip;
    const spfResult = await spfOf(peer.ip, isIP(helo) ? `[${helo}]` : helo, sender, peer.mta);
    const dmarcResult = dkim.headerFrom ? await dmarc({
      headerFrom: dkim.headerFrom,
      spfDomains: spfResult.status.result === 'pass' && spfResult.domain ? [spfResult.domain] : [],
      dkimDomains: dkim.results.filter((r) => r.status.result === 'pass')
        .map((r) => ({ id: r.id, domain: r.signingDomain, aligned: r.status.aligned, underSized: r.status.underSized })),
      resolver,
    }) : false;
    const lines = [...dkim.results.map((r) => r.info), spfResult.info, ...(dmarcResult && dmarcResult.info ? [dmarcResult.info] : [])];
    const authResults = `Authentication-Results: ${peer.mta};\r\n ${lines.map((l) => libmime.foldLines(l, 160)).join(';\r\n ')}`;
    return {
      dkim: { results: dkim.results, headerFrom: dkim.headerFrom },
      spf: spfResult,
      dmarc: dmarcResult,
      headers: `${spfResult.header}\r\n${authResults}\r\n`,
    };
  };
}

/** An SPF answer that must not be kept: a DNS failure may be gone on the next mail. */
class Temporary extends Error {
  constructor(readonly result: SPFResult) { super('SPF temperror'); }
}

/**
 * What mailauth is given of a message (or of the start of a big one). With ARC and BIMI off, only a DKIM
 * signature makes a result depend on the body (SPF reads the envelope, DMARC the From
 * header and the other two results), so an unsigned message is checked on its header
 * block alone: the same answer, without mailauth's byte-by-byte walk over the body (about
 * 0.35 of its 0.6 ms CPU per 4-40 KB mail). Anything unusual (a bare LF, which could end
 * the header block elsewhere; a signature anywhere in the header text, no end of the
 * header block in `raw`) gets the whole message: `raw` itself.
 */
export function authInput(raw: Buffer): Buffer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return raw;
  const head = raw.subarray(0, end + 4);
  for (let i = head.indexOf(0x0a); i >= 0; i = head.indexOf(0x0a, i + 1)) if (i === 0 || head[i - 1] !== 0x0d) return raw;
  return /dkim-signature|arc-message-signature|arc-seal/i.test(head.toString('latin1')) ? raw : head;
}
