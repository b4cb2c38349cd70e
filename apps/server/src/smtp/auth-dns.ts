import { promises as dns } from 'node:dns';
import type { DNSResolver } from 'mailauth';

/**
 * DNS for inbound SPF, DKIM and DMARC, on the servers DNS_SERVERS names (the system's
 * when empty), like outbound MX lookups. One try with a short timeout: a slow
 * resolver must cost a sender seconds, not the minutes of the default retries.
 */
export function authResolver(servers: string[], timeoutMs: number): DNSResolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  // mailauth asks for TXT, MX, A, AAAA and PTR and reads each answer as dns.resolve gives it.
  return (name, rrtype) => resolver.resolve(name, rrtype as 'TXT') as unknown as ReturnType<DNSResolver>;
}
