import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withLifeTables, type JobKind, type JobState } from './tables.js';

// The durable queue of company jobs (provision, export, purge): claimed with FOR UPDATE SKIP LOCKED
// under a lease, so N nodes never run one job at once and a dead node's job is claimed again.

const life = (db: Db) => withLifeTables(db);

export interface JobRow {
  id: number; kind: JobKind; customer_id: number; order_id: number | null; company_id: number | null;
  payload: Record<string, unknown>; state: JobState; attempts: number; run_at: Date; last_error: string; result: Record<string, unknown> | null;
}

/** Wakes the runners of every node once the enqueuing transaction commits (NOTIFY is held until then). */
export const JOBS_CHANNEL = 'company_jobs';

export async function insertJob(db: Db, v: { kind: JobKind; customerId: number; orderId?: number; companyId?: number | null; payload: Record<string, unknown>; runAt: Date }): Promise<number> {
  const row = await life(db).insertInto('company_jobs').values({
    kind: v.kind, customer_id: v.customerId, order_id: v.orderId ?? null, company_id: v.companyId ?? null, payload: JSON.stringify(v.payload), run_at: v.runAt,
  }).returning('id').executeTakeFirstOrThrow();
  await sql`SELECT pg_notify(${JOBS_CHANNEL}, ${String(row.id)})`.execute(db);
  return row.id;
}

/** The provision job of an order, if one exists (inserted or not by this call). */
export async function insertProvisionOnce(db: Db, v: { customerId: number; orderId: number; payload: Record<string, unknown>; runAt: Date }): Promise<{ id: number; created: boolean }> {
  const row = await life(db).insertInto('company_jobs').values({
    kind: 'provision', customer_id: v.customerId, order_id: v.orderId, payload: JSON.stringify(v.payload), run_at: v.runAt,
  }).onConflict((oc) => oc.column('order_id').where('kind', '=', 'provision').doNothing()).returning('id').executeTakeFirst();
  if (row) {
    await sql`SELECT pg_notify(${JOBS_CHANNEL}, ${String(row.id)})`.execute(db);
    return { id: row.id, created: true };
  }
  const old = await life(db).selectFrom('company_jobs').select('id').where('kind', '=', 'provision').where('order_id', '=', v.orderId).executeTakeFirstOrThrow();
  return { id: old.id, created: false };
}

/** Due jobs, each leased to this node until `leaseUntil`; attempts counts claims. */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<JobRow[]> {
  const r = await sql<JobRow>`
    UPDATE company_jobs j SET lease_until = ${leaseUntil}, attempts = j.attempts + 1
    WHERE j.id IN (
      SELECT id FROM company_jobs WHERE state = 'pending' AND run_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
      ORDER BY run_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING j.id, j.kind, j.customer_id, j.order_id, j.company_id, j.payload, j.state, j.attempts, j.run_at, j.last_error, j.result`.execute(db);
  return r.rows.map(normalise);
}

/** Locks one job for the transaction doing its work; a job finished meanwhile (by another node) comes back not pending. */
export async function lockJob(db: Db, id: number): Promise<JobRow | undefined> {
  const row = await life(db).selectFrom('company_jobs')
    .select(['id', 'kind', 'customer_id', 'order_id', 'company_id', 'payload', 'state', 'attempts', 'run_at', 'last_error', 'result'])
    .where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? normalise(row as JobRow) : undefined;
}

export async function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  const row = await life(db).selectFrom('company_jobs')
    .select(['id', 'kind', 'customer_id', 'order_id', 'company_id', 'payload', 'state', 'attempts', 'run_at', 'last_error', 'result'])
    .where('id', '=', id).executeTakeFirst();
  return row ? normalise(row as JobRow) : undefined;
}

export async function provisionOfOrder(db: Db, orderId: number) {
  return life(db).selectFrom('company_jobs').select(['id', 'state', 'attempts', 'last_error', 'run_at', 'company_id', 'created_at', 'finished_at'])
    .where('kind', '=', 'provision').where('order_id', '=', orderId).executeTakeFirst();
}

export async function setCompany(db: Db, id: number, companyId: number): Promise<void> {
  await life(db).updateTable('company_jobs').set({ company_id: companyId }).where('id', '=', id).execute();
}

export async function setPayload(db: Db, id: number, payload: Record<string, unknown>): Promise<void> {
  await life(db).updateTable('company_jobs').set({ payload: JSON.stringify(payload) }).where('id', '=', id).execute();
}

export async function finish(db: Db, id: number, now: Date, result: Record<string, unknown>, payload?: Record<string, unknown>): Promise<void> {
  await life(db).updateTable('company_jobs').set({
    state: 'done', finished_at: now, lease_until: null, last_error: '', result: JSON.stringify(result), ...(payload ? { payload: JSON.stringify(payload) } : {}),
  }).where('id', '=', id).execute();
}

/** After a failed attempt: again at `runAt`, or failed for good when `runAt` is null. */
export async function retryOrFail(db: Db, id: number, error: string, runAt: Date | null, now: Date): Promise<void> {
  await life(db).updateTable('company_jobs').set(runAt
    ? { run_at: runAt, lease_until: null, last_error: error.slice(0, 500) }
    : { state: 'failed', finished_at: now, lease_until: null, last_error: error.slice(0, 500) })
    .where('id', '=', id).where('state', '=', 'pending').execute();
}

export async function cancelJob(db: Db, id: number, now: Date): Promise<void> {
  await life(db).updateTable('company_jobs').set({ state: 'cancelled', finished_at: now, lease_until: null }).where('id', '=', id).where('state', '=', 'pending').execute();
}

function normalise(j: JobRow): JobRow {
  return {
    ...j, id: Number(j.id), customer_id: Number(j.customer_id), order_id: j.order_id === null ? null : Number(j.order_id),
    company_id: j.company_id === null ? null : Number(j.company_id), attempts: Number(j.attempts), run_at: new Date(j.run_at),
    payload: typeof j.payload === 'string' ? JSON.parse(j.payload) as Record<string, unknown> : j.payload,
  };
}
