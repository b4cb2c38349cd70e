import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { CustomersTable } from '../../db/types.js';

// Row types of migration 015 (the west storefront), joined to the Database type with
// withTables so the shared db/types.ts needs no edit. west-pay and west-shop use them too.

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type WestCustomersTable = CustomersTable & {
  mobile: Nullable<string>;
  totp_secret: Nullable<string>;
  totp_pending: Nullable<string>;
  totp_last_step: Nullable<number>;
  agreed_at: Nullable<Date>;
  profile: ColumnType<Record<string, string>, string | undefined, string>;
};

export type WestTables = {
  customers: WestCustomersTable;
  west_sessions: { id: Generated<number>; customer_id: number; token_hash: string; ip: string; user_agent: string; expires_at: Date; created_at: Stamp };
  west_codes: { address: string; purpose: 'register' | 'login'; code_hash: string; attempts: Generated<number>; sent_at: Date; expires_at: Date };
  west_tickets: { ticket_hash: string; customer_id: number; way: 'email' | 'totp'; attempts: Generated<number>; expires_at: Date };
  west_captcha_spent: { signature: string; expires_at: Date };
  west_ledger: {
    id: Generated<number>; customer_id: number; amount_cents: number; kind: 'topup' | 'purchase' | 'renew' | 'seats' | 'refund' | 'adjust';
    ref: string; balance_after: number; created_at: Stamp;
  };
  west_payments: {
    id: Generated<number>; customer_id: number; provider: string; out_trade_no: string; trade_no: Nullable<string>; amount_cents: number;
    status: Generated<'pending' | 'paid' | 'closed'>; created_at: Date; paid_at: Nullable<Date>; check_at: Date; checks: Generated<number>;
  };
  west_payment_callbacks: {
    id: Generated<number>; provider: string; raw: string; verified: boolean; out_trade_no: string | null; outcome: string; received_at: Stamp;
  };
  west_plans: {
    id: Generated<number>; code: string; name_zh: string; name_en: string; seat_year_cents: number; min_seats: Generated<number>;
    max_seats: Generated<number>; quota_mb: Generated<number>; active: Generated<boolean>; created_at: Stamp;
  };
  west_orders: {
    id: Generated<number>; customer_id: number; kind: 'buy' | 'renew' | 'seats'; plan_id: number; company_id: Nullable<number>; domain: string;
    seats: number; years: Generated<number>; seat_year_cents: number; price_cents: number; admin_email: Generated<string>;
    admin_password_hash: Nullable<string>; created_at: Stamp;
  };
};

export const withWestTables = (db: Db) => db.withTables<WestTables>();
export type WestDb = ReturnType<typeof withWestTables>;
