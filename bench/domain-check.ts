import { dkimTxtRecord, generateDkimKey } from '../apps/server/src/features/admin/company.service.js';
import { checkDomain, domainResolver } from '../apps/server/src/features/domain-check/dns-check.js';
import { startDnsStandIn } from '../apps/server/test/dns-standin.js';

// Issue 17's figure: the time to check one domain's records (ownership, MX, SPF with three
// levels of includes, DKIM of a 2048-bit key, DMARC) against a DNS server on loopback,
// uncached: the check's own cost, without the Internet's round trips. Also one check where
// every name times out, which costs about one DOMAIN_CHECK_TIMEOUT_MS, not five.
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const key = generateDkimKey();
const d = 'bench.test';
const dns = await startDnsStandIn({
  [`_mailwing.${d}`]: { txt: ['mailwing-verify=t0ken'] },
  [d]: { mx: [{ priority: 10, exchange: 'mx.bench.test' }], txt: [`v=spf1 include:_spf1.${d} include:_spf2.${d} -all`, 'other=1'] },
  [`_spf1.${d}`]: { txt: [`v=spf1 ip4:198.51.100.0/24 include:_spf3.${d} ~all`] },
  [`_spf2.${d}`]: { txt: ['v=spf1 ip4:203.0.113.0/24 ~all'] },
  [`_spf3.${d}`]: { txt: ['v=spf1 ip4:192.0.2.0/24 ~all'] },
  [`mw1._domainkey.${d}`]: { txt: [dkimTxtRecord(key.publicKey)] },
  [`_dmarc.${d}`]: { txt: ['v=DMARC1; p=quarantine'] },
  ['slow.test']: { silent: true }, ['_mailwing.slow.test']: { silent: true }, ['mw1._domainkey.slow.test']: { silent: true }, ['_dmarc.slow.test']: { silent: true },
});
const timeoutMs = 1_000;
const lookup = domainResolver([dns.server], timeoutMs);
const expected = (domain: string) => ({ domain, mailHost: 'mx.bench.test', sendingIps: ['192.0.2.25'], verifyToken: 't0ken', dkim: { selector: 'mw1', publicKey: key.publicKey } });
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  const r = await checkDomain(lookup, expected(d));
  times.push(performance.now() - t);
  if (r.some((x) => x.state !== 'ok')) throw new Error(`not all ok: ${JSON.stringify(r.map((x) => [x.kind, x.state]))}`);
}
times.sort((a, b) => a - b);
const t = performance.now();
const slow = await checkDomain(lookup, expected('slow.test'));
const slowMs = performance.now() - t;
if (slow.some((x) => x.state !== 'unverifiable')) throw new Error('the silent domain should be unverifiable');
await dns.close();
const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 100) / 100;
console.log(JSON.stringify({ bench: 'domain-check', runs: RUNS, queries_per_check: dns.queries.length / (RUNS + 1), p50_ms: q(0.5), p95_ms: q(0.95), max_ms: q(1), all_timeout_ms: Math.round(slowMs), timeout_ms: timeoutMs }));
