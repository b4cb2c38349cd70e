import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { Code, IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, invalid } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import * as repo from './idempotency.repository.js';

/** The request header a client sets to make a POST safe to retry (docs/offline.md). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key is remembered: an outbox replays within hours, not days. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** A pending claim older than this belongs to a request that died; a retry may take it over. */
export const IDEMPOTENCY_STALE_MS = 2 * 60_000;
/** How long a duplicate waits for the first request's answer before it is told to retry. */
const WAIT_MS = 10_000;
const POLL_MS = 50;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencyClaim;
  }
}

/** A request's claim on its key; `claimedAt` tells it from a later takeover of the same key. */
export interface IdempotencyClaim { userId: number; key: string; claimedAt: Date; answered?: true }

export interface IdempotencyOptions {
  /** The clock keys are stamped and expired with; tests move it. */
  now: () => Date;
}

/** Key order does not change a body's meaning: hash it canonically. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(canonical(body)).digest('hex');
}

const reused = () => new AppError(Code.Invalid, { 'Idempotency-Key': 'This key was already used for a different request' },
  { reason: 'idempotency.key_reused', reasons: { 'Idempotency-Key': 'idempotency.key_reused' } });
const inProgress = () => new AppError(Code.TooMany, 'A request with this key is still running; retry shortly', { reason: 'idempotency.in_progress', retryAfter: 1 });

/**
 * `Idempotency-Key` on any signed-in POST (IETF draft-ietf-httpapi-idempotency-key-header):
 * the first request with a key runs and its envelope is stored; a repeat with the same key
 * and the same body gets that envelope back (header `Idempotent-Replayed: true`) and runs
 * nothing, so a mail is never sent twice. A repeat while the first still runs waits for its
 * answer. The same key with another body is refused (idempotency.key_reused). Keys are per
 * user: another user's identical key is unrelated. A refused first request (any code but
 * 200) changed nothing, so its key is released and a retry runs again.
 */
export function installIdempotency(app: App, db: Db, opts: IdempotencyOptions): void {
  app.addHook('preHandler', async (req, reply) => {
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (req.method !== 'POST' || header === undefined || !req.auth) return;
    const parsed = IdempotencyKey.safeParse(Array.isArray(header) ? header[0] : header);
    if (!parsed.success) throw invalid('Idempotency-Key', 'Use 1 to 200 printable characters', 'idempotency.bad_key');
    const key = parsed.data;
    const userId = req.auth.userId;
    const route = req.routeOptions.url ?? req.url.split('?')[0] ?? '';
    const hash = requestHash(route, req.body);
    const started = Date.now();
    for (;;) {
      const now = opts.now();
      const expires = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
      if (await repo.claim(db, { userId, key, route, hash, now, expires })) {
        req.idempotency = { userId, key, claimedAt: now };
        return;
      }
      const row = await repo.find(db, userId, key);
      if (!row) continue; // released (or swept) between our insert and read: claim again
      if (row.request_hash !== hash) throw reused();
      if (row.state === 'done' && row.response !== null) {
        reply.header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8');
        return reply.send(row.response);
      }
      if (await repo.takeOver(db, userId, key, new Date(now.getTime() - IDEMPOTENCY_STALE_MS), now, expires)) {
        req.idempotency = { userId, key, claimedAt: now };
        return;
      }
      // The first request is still running: wait for its answer (real time, not the clock:
      // this bounds how long a socket is held, it is no deadline of the product).
      if (Date.now() - started > WAIT_MS) throw inProgress();
      await delay(POLL_MS);
    }
  });

  app.addHook('onSend', async (req, _reply, payload) => {
    const claimed = req.idempotency;
    if (!claimed) return payload;
    req.idempotency = undefined;
    // The route stored its answer in its own transaction (answerInTransaction): the key is
    // settled with the work, whatever happened after the commit.
    if (claimed.answered) return payload;
    let code: unknown;
    if (typeof payload === 'string') {
      try { code = (JSON.parse(payload) as { code?: unknown }).code; } catch { code = undefined; }
    }
    if (code === Code.Ok && typeof payload === 'string') await repo.finish(db, claimed.userId, claimed.key, claimed.claimedAt, payload);
    else await repo.release(db, claimed.userId, claimed.key, claimed.claimedAt);
    return payload;
  });
}

/**
 * For a route whose work must never run twice (write/send): stores the key's answer inside
 * the route's own transaction, so the work and the answer commit together or not at all.
 * The hook above records it only after the reply is built, and a crash between the commit
 * and that record would let a retry run the work again. Throws (rolling the transaction
 * back) when the claim was taken over meanwhile: the request that took it is the one that runs.
 */
export async function answerInTransaction(trx: Db, claim: IdempotencyClaim | undefined, data: unknown): Promise<void> {
  if (!claim) return;
  if (!(await repo.finish(trx, claim.userId, claim.key, claim.claimedAt, JSON.stringify(ok(data))))) throw inProgress();
  claim.answered = true;
}

/** Removes expired keys (the runtime calls it hourly; tests call it with a moved clock). */
export function sweepIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return repo.sweep(db, now);
}

/**
 * Adds the optional Idempotency-Key header to every signed-in POST in the OpenAPI document
 * (wraps the zod transform; the header is read by the hook above, not by route schemas).
 */
export function documentIdempotencyHeader<T extends { schema?: unknown; url: string }>(
  transform: (doc: never) => T,
): (doc: { route?: { method?: string | string[]; config?: { public?: boolean } } }) => T {
  const header = z.toJSONSchema(IdempotencyKey);
  return (doc) => {
    const out = transform(doc as never);
    const methods = [doc.route?.method ?? []].flat();
    const schema = out.schema as { hide?: boolean; headers?: { type?: string; properties?: Record<string, unknown> } } | undefined;
    if (!schema || schema.hide || !methods.includes('POST') || doc.route?.config?.public) return out;
    schema.headers = { type: 'object', ...schema.headers, properties: { ...schema.headers?.properties, [IDEMPOTENCY_KEY_HEADER]: header } };
    return out;
  };
}
