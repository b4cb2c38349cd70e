import Fastify from 'fastify';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { MailList } from '@mailwing/shared';
import { responseSerializerCompiler } from '../src/http/serializer.js';

// http/serializer.ts writes responses with a writer compiled from each route's zod schema; off
// production it also encodes with zod and insists the two agree. These tests hold the writer to
// zod's output, keep it from writing what the schema does not name, and prove the check can fail.

const Envelope = z.object({ code: z.literal(200), data: MailList });

function row(i: number) {
  return {
    id: String(100_000 + i), mid: '0', subject: i === 3 ? 'Quotes " \\ </script> \u2028 \ud800 報告 😀' : `Quarterly report ${i}`,
    from: { name: `Sender ${i}`, address: `sender${i}@outside.example` }, to: [{ name: '', address: 'user0@bench.test' }],
    date: 1_764_440_000 + i, size: 4096 + i, status: 'read', read: i % 3 !== 0, star: i % 5 === 0, urgent: false, hasAttach: i % 4 === 0,
    tags: i % 2 ? ['Work', '项目'] : [], snippet: `Snippet\n\t${i}`, sendAt: i === 7 ? 1_764_450_000 : null, fromImportant: i === 2,
    fromAvatar: i === 5 ? 'ab'.repeat(32) : null,
    ...(i === 9 ? { conv: { id: '77', count: 4, unread: 1, participants: [{ name: 'A', address: 'a@x.test' }] } } : {}),
    // What a repository row carries beyond the API's shape: never written.
    user_id: 42, blob_hash: 'secret-hash', password_hash: '$argon2id$secret',
  };
}
const page = () => ({ code: 200, data: { list: Array.from({ length: 20 }, (_, i) => row(i)), total: 100_000, page: 1, size: 20, conversations: false } });

async function serve(checked: boolean, schema: z.ZodType, data: () => unknown) {
  const app = Fastify();
  app.setSerializerCompiler(responseSerializerCompiler({ checked }));
  app.get('/r', { schema: { response: { 200: schema } } }, async () => data());
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/r' });
  await app.close();
  return res;
}

describe('response writer', () => {
  for (const checked of [false, true]) {
    it(`writes what zod's encoding gives, and nothing the schema does not name (${checked ? 'checked' : 'production'})`, async () => {
      const res = await serve(checked, Envelope, page);
      expect(res.statusCode).toBe(200);
      const body = JSON.parse(res.body);
      expect(body).toEqual(JSON.parse(JSON.stringify(z.encode(Envelope, page() as never))));
      expect(body.data.list).toHaveLength(20);
      expect(body.data.list[3].subject).toBe(row(3).subject);
      expect(body.data.list[9].conv.participants[0].address).toBe('a@x.test');
      expect(res.body).not.toContain('secret');
      expect(res.body).not.toContain('user_id');
    });
  }

  it('refuses a wrong shape, off production, as zod did', async () => {
    const res = await serve(true, Envelope, () => ({ ...page(), data: { ...page().data, total: 'many' } }));
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('FST_ERR_RESPONSE_SERIALIZATION');
  });

  it('throws, off production, when the writer and zod disagree', async () => {
    // A value that changes between reads: zod reads it first, the writer after; nothing else in this file does that.
    let reads = 0;
    const Counter = z.object({ n: z.number().int() });
    const res = await serve(true, Counter, () => ({ get n() { return reads++; } }));
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toMatch(/the response writer of GET \/r disagrees with its zod schema/);
    expect(reads).toBe(2);
  });

  it('keeps zod for a schema JSON Schema cannot say', async () => {
    const at = new Date('2026-11-29T19:22:06.123Z');
    const res = await serve(false, z.object({ at: z.date(), n: z.number() }), () => ({ at, n: 1, extra: true }));
    expect(res.json()).toEqual({ at: '2026-11-29T19:22:06.123Z', n: 1 });
  });
});
