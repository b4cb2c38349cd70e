import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// The west storefront (issue 19). A customer (table `customers`, migration 001) is a
// realm of its own: its sessions, codes and second factor are not the mailbox user's.
// Money is whole fen. `customers.balance_cents` is a cache of the sum of the ledger,
// written in the same transaction as each ledger row; a check function proves it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE customers
  ADD COLUMN mobile text,
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_pending text,
  ADD COLUMN totp_last_step bigint,
  ADD COLUMN agreed_at timestamptz,
  ADD COLUMN profile jsonb NOT NULL DEFAULT '{}';

CREATE TABLE west_sessions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX west_sessions_customer ON west_sessions(customer_id);

-- One live code per (address, purpose). The address is the customer's e-mail, also
-- before an account exists (registration), so codes are keyed by address, not by id.
CREATE TABLE west_codes (
  address text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (address, purpose)
);

-- Password proven, second factor pending.
CREATE TABLE west_tickets (
  ticket_hash text PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  way text NOT NULL CHECK (way IN ('email', 'totp')),
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL
);

-- Solved captcha challenges, so one solution opens one door (altcha payloads are otherwise replayable until they expire).
CREATE TABLE west_captcha_spent (
  signature text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX west_captcha_spent_expiry ON west_captcha_spent(expires_at);

CREATE TABLE west_ledger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  kind text NOT NULL CHECK (kind IN ('topup', 'purchase', 'renew', 'seats', 'refund', 'adjust')),
  -- What the entry is for ('payment:12', 'order:7'): one entry per thing, whatever retries happen.
  ref text NOT NULL UNIQUE,
  balance_after bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX west_ledger_customer ON west_ledger(customer_id, id);

-- Top-ups. out_trade_no is ours; trade_no is the provider's, unique per provider.
CREATE TABLE west_payments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id),
  provider text NOT NULL,
  out_trade_no text NOT NULL UNIQUE,
  trade_no text,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'closed')),
  created_at timestamptz NOT NULL,
  paid_at timestamptz,
  -- Reconciliation: a pending payment is asked about at check_at, and again later until closed.
  check_at timestamptz NOT NULL,
  checks integer NOT NULL DEFAULT 0,
  UNIQUE (provider, trade_no)
);
CREATE INDEX west_payments_customer ON west_payments(customer_id, id);
CREATE INDEX west_payments_due ON west_payments(check_at) WHERE status = 'pending';

-- Every callback as it came, with what we made of it.
CREATE TABLE west_payment_callbacks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider text NOT NULL,
  raw text NOT NULL,
  verified boolean NOT NULL,
  out_trade_no text,
  outcome text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE west_plans (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name_zh text NOT NULL,
  name_en text NOT NULL,
  -- Price of one seat for one year, in fen.
  seat_year_cents bigint NOT NULL CHECK (seat_year_cents > 0),
  min_seats integer NOT NULL DEFAULT 1,
  max_seats integer NOT NULL DEFAULT 1000,
  quota_mb integer NOT NULL DEFAULT 5120,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Purchases paid from the balance. The price is a snapshot: a later price change does not touch it.
CREATE TABLE west_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id),
  kind text NOT NULL CHECK (kind IN ('buy', 'renew', 'seats')),
  plan_id bigint NOT NULL REFERENCES west_plans(id),
  company_id bigint REFERENCES companies(id) ON DELETE SET NULL,
  domain text NOT NULL,
  seats integer NOT NULL,
  years integer NOT NULL DEFAULT 0,
  seat_year_cents bigint NOT NULL,
  price_cents bigint NOT NULL CHECK (price_cents >= 0),
  admin_email text NOT NULL DEFAULT '',
  -- The first administrator's password, chosen at purchase, hashed; provisioning sets it on the mailbox.
  admin_password_hash text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX west_orders_customer ON west_orders(customer_id, id);
`);
}
