import { indexTokens } from '@mailwing/shared';

type Addr = { name: string; address: string };

/** Index tokens of one mail: subject, sender, recipients, body text (first 100 KB) and attachment names. */
export function contentTokens(c: { subject: string; from: Addr; to: Addr[]; cc: Addr[]; text: string; attachments: { name: string }[] }): string[] {
  const parts = [c.subject, c.from.name, c.from.address, ...[...c.to, ...c.cc].flatMap((a) => [a.name, a.address]), c.text.slice(0, 100_000), ...c.attachments.map((a) => a.name)];
  return [...new Set(indexTokens(parts.join('\n')))];
}
