import { promises as dns } from 'node:dns';
import type { DNSResolver } from 'mailauth';

// Answers are kept at most this long. Node's resolver does not report TTLs for every
// record type, so this is a fixed ceiling below the TTLs senders publish for SPF,
// DKIM and DMARC (minutes to hours): a changed record is seen within 30 s.
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;
// "No such name" and "no such record" are answers too; anything else (SERVFAIL, a
// timeout) is not cached, so the next mail asks again.
const NEGATIVE = new Set(['ENOTFOUND', 'ENODATA']);

type Answer = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * DNS for inbound SPF, DKIM and DMARC, on the servers DNS_SERVERS names (the system's
 * when empty), like outbound MX lookups. One try with a short timeout: a slow
 * resolver must cost a sender seconds, not the minutes of the default retries.
 *
 * A small cache in front (issue 13): every mail from one domain asks the same SPF
 * and DMARC questions, and a bulk sender sends many at once. Identical questions in
 * flight share one query. The cache is per process and only ever saves round trips.
 */
export function authResolver(servers: string[], timeoutMs: number, now: () => number = Date.now): DNSResolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  const cache = new Map<string, { until: number; answer: Answer }>();
  const inFlight = new Map<string, Promise<Answer>>();

  const ask = async (name: string, rrtype: string): Promise<Answer> => {
    try {
      // mailauth asks for TXT, MX, A, AAAA and PTR and reads each answer as dns.resolve gives it.
      return { ok: true, value: await resolver.resolve(name, rrtype as 'TXT') };
    } catch (error) {
      return { ok: false, error };
    }
  };

  return (async (name: string, rrtype: string) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const hit = cache.get(key);
    let answer: Answer;
    if (hit && hit.until > now()) {
      answer = hit.answer;
    } else {
      let pending = inFlight.get(key);
      if (!pending) {
        pending = ask(name, rrtype).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      answer = await pending;
      const cacheable = answer.ok || NEGATIVE.has((answer.error as { code?: string }).code ?? '');
      if (cacheable) {
        if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
        cache.set(key, { until: now() + CACHE_MS, answer });
      }
    }
    if (!answer.ok) throw answer.error;
    return answer.value;
  }) as unknown as DNSResolver;
}
