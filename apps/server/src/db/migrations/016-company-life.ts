import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Company lifecycle for the west storefront (issue 19): provisioning, expiry, export, cancellation.
// company_jobs holds every background step (provision, export, purge) as a durable row claimed
// FOR UPDATE SKIP LOCKED under a lease and retried with back-off. A provision job is keyed by its
// order, so an order is provisioned once however often it is enqueued or run.
// company_notices keys each expiry reminder by (company, the expiry it warns of, days before):
// each is sent once, and a renewal (a new expiry) arms a fresh set.
// Export archives are blobs (refcounted); links to them are signed, and each download is logged.
// A cancellation waits 30 days with undo, then a purge job removes the customer's companies.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE TABLE company_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('provision', 'export', 'purge')),
  customer_id bigint NOT NULL,
  order_id bigint,
  company_id bigint,
  payload jsonb NOT NULL DEFAULT '{}',
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  run_at timestamptz NOT NULL,
  lease_until timestamptz,
  last_error text NOT NULL DEFAULT '',
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX company_jobs_order ON company_jobs(order_id) WHERE kind = 'provision';
CREATE INDEX company_jobs_due ON company_jobs(run_at) WHERE state = 'pending';
CREATE INDEX company_jobs_customer ON company_jobs(customer_id, kind);

CREATE TABLE company_notices (
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  days_before integer NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'skipped')),
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  sent_at timestamptz,
  PRIMARY KEY (company_id, expires_at, days_before)
);
CREATE INDEX company_notices_pending ON company_notices(company_id) WHERE state = 'pending';

CREATE TABLE customer_exports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL,
  job_id bigint NOT NULL REFERENCES company_jobs(id),
  blob_hash text REFERENCES blobs(hash),
  size bigint NOT NULL DEFAULT 0,
  link_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_exports_customer ON customer_exports(customer_id);
CREATE TABLE customer_export_downloads (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  export_id bigint NOT NULL REFERENCES customer_exports(id) ON DELETE CASCADE,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  at timestamptz NOT NULL
);

CREATE TABLE customer_cancellations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL,
  requested_at timestamptz NOT NULL,
  purge_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'undone', 'purged')),
  job_id bigint NOT NULL REFERENCES company_jobs(id),
  undone_at timestamptz,
  purged_at timestamptz
);
CREATE UNIQUE INDEX customer_cancellations_open ON customer_cancellations(customer_id) WHERE state = 'pending';
`);
}
