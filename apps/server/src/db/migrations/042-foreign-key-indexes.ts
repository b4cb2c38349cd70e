import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Every foreign key gets an index on its referencing columns. PostgreSQL indexes the
// referenced side of a key (a primary key or unique), never the referencing side, so deleting
// or re-keying a referenced row checks each referencing table by a full read of it. The one
// that hurt is the blob collector (blob.service.ts `collect`, run after every permanent delete
// and every 10 minutes): a blob's row names seven referencing tables, six of them unindexed,
// and `lockIfCollectable` reads mail_contents, outbox and uploads by blob_hash as well. With
// 200,000 received mails (mail_contents 130 MB, cached) that was two sequential reads of
// mail_contents per collected blob, 22 ms each, growing with every mail the server ever kept;
// a purge collects up to 500 blobs inside the user's request. The others are the same shape
// on smaller or rarer paths (a user's, a session's, an outbox job's or a tag's delete).
// test/foreign-key-indexes.test.ts keeps the rule for keys added later.
//
// Only mail_contents is written on every delivery: one more b-tree insert per stored mail.
// Plain CREATE INDEX, inside the migration's transaction: it blocks writes to each table while
// it builds (on a large mail_contents, minutes); run migrations in a quiet window.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
-- audit_rules_company holds enabled rules only: a company's delete must find the others too.
CREATE INDEX IF NOT EXISTS audit_rules_company_id_fk ON audit_rules (company_id);
CREATE INDEX IF NOT EXISTS audit_links_item_id_fk ON audit_links (item_id);
CREATE INDEX IF NOT EXISTS customer_exports_blob_hash_fk ON customer_exports (blob_hash);
CREATE INDEX IF NOT EXISTS disk_nodes_blob_hash_fk ON disk_nodes (blob_hash);
CREATE INDEX IF NOT EXISTS mail_contents_blob_hash_fk ON mail_contents (blob_hash);
CREATE INDEX IF NOT EXISTS outbox_blob_hash_fk ON outbox (blob_hash);
CREATE INDEX IF NOT EXISTS uploads_blob_hash_fk ON uploads (blob_hash);
CREATE INDEX IF NOT EXISTS users_avatar_hash_fk ON users (avatar_hash);
CREATE INDEX IF NOT EXISTS cal_events_series_id_fk ON cal_events (series_id);
CREATE INDEX IF NOT EXISTS aliases_company_id_fk ON aliases (company_id);
CREATE INDEX IF NOT EXISTS mail_groups_company_id_fk ON mail_groups (company_id);
CREATE INDEX IF NOT EXISTS outbox_company_id_fk ON outbox (company_id);
CREATE INDEX IF NOT EXISTS west_orders_company_id_fk ON west_orders (company_id);
CREATE INDEX IF NOT EXISTS customer_cancellations_job_id_fk ON customer_cancellations (job_id);
CREATE INDEX IF NOT EXISTS customer_exports_job_id_fk ON customer_exports (job_id);
CREATE INDEX IF NOT EXISTS customer_export_downloads_export_id_fk ON customer_export_downloads (export_id);
CREATE INDEX IF NOT EXISTS companies_customer_id_fk ON companies (customer_id);
CREATE INDEX IF NOT EXISTS west_tickets_customer_id_fk ON west_tickets (customer_id);
CREATE INDEX IF NOT EXISTS admin_scopes_department_id_fk ON admin_scopes (department_id);
CREATE INDEX IF NOT EXISTS departments_parent_id_fk ON departments (parent_id);
CREATE INDEX IF NOT EXISTS mail_group_departments_department_id_fk ON mail_group_departments (department_id);
CREATE INDEX IF NOT EXISTS mail_groups_department_id_fk ON mail_groups (department_id);
CREATE INDEX IF NOT EXISTS users_department_id_fk ON users (department_id);
CREATE INDEX IF NOT EXISTS disk_nodes_parent_id_fk ON disk_nodes (parent_id);
CREATE INDEX IF NOT EXISTS disk_shares_node_id_fk ON disk_shares (node_id);
CREATE INDEX IF NOT EXISTS users_domain_id_fk ON users (domain_id);
CREATE INDEX IF NOT EXISTS folders_user_id_parent_mid_fk ON folders (user_id, parent_mid);
CREATE INDEX IF NOT EXISTS mail_rule_jobs_rule_id_fk ON mail_rule_jobs (rule_id);
CREATE INDEX IF NOT EXISTS notes_folder_id_fk ON notes (folder_id);
CREATE INDEX IF NOT EXISTS send_recipients_outbox_id_fk ON send_recipients (outbox_id);
CREATE INDEX IF NOT EXISTS auth_tickets_session_id_fk ON auth_tickets (session_id);
CREATE INDEX IF NOT EXISTS push_subscriptions_session_id_fk ON push_subscriptions (session_id);
CREATE INDEX IF NOT EXISTS signature_defaults_new_id_fk ON signature_defaults (new_id);
CREATE INDEX IF NOT EXISTS signature_defaults_reply_id_fk ON signature_defaults (reply_id);
CREATE INDEX IF NOT EXISTS message_tags_tag_id_fk ON message_tags (tag_id);
CREATE INDEX IF NOT EXISTS templates_category_id_fk ON templates (category_id);
CREATE INDEX IF NOT EXISTS announcement_reads_user_id_fk ON announcement_reads (user_id);
CREATE INDEX IF NOT EXISTS announcements_author_id_fk ON announcements (author_id);
CREATE INDEX IF NOT EXISTS audit_items_sender_id_fk ON audit_items (sender_id);
CREATE INDEX IF NOT EXISTS audit_links_auditor_id_fk ON audit_links (auditor_id);
CREATE INDEX IF NOT EXISTS cal_itip_jobs_user_id_fk ON cal_itip_jobs (user_id);
CREATE INDEX IF NOT EXISTS cal_itip_out_user_id_fk ON cal_itip_out (user_id);
CREATE INDEX IF NOT EXISTS cal_reminders_user_id_fk ON cal_reminders (user_id);
CREATE INDEX IF NOT EXISTS dispatches_user_id_fk ON dispatches (user_id);
CREATE INDEX IF NOT EXISTS mail_group_members_user_id_fk ON mail_group_members (user_id);
CREATE INDEX IF NOT EXISTS mail_rule_jobs_user_id_fk ON mail_rule_jobs (user_id);
CREATE INDEX IF NOT EXISTS migrate_accounts_user_id_fk ON migrate_accounts (user_id);
CREATE INDEX IF NOT EXISTS outbox_sender_id_fk ON outbox (sender_id);
CREATE INDEX IF NOT EXISTS quota_notices_user_id_fk ON quota_notices (user_id);
CREATE INDEX IF NOT EXISTS west_orders_plan_id_fk ON west_orders (plan_id);
`);
}
