import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Address } from '@mailwing/shared';

// Row types of the tables in migrations/. bigint ids are read as JS numbers
// (connect.ts sets both drivers that way); they stay below 2^53 in practice.

type Id = Generated<number>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string, string>;

export interface CustomersTable { id: Id; email: string; password_hash: string; name: Generated<string>; balance_cents: Generated<number>; status: Generated<string>; created_at: CreatedAt }
export interface CompaniesTable { id: Id; customer_id: number | null; name: string; plan: Generated<string>; seats: Generated<number>; expires_at: Date | null; status: Generated<string>; is_demo: Generated<boolean>; audit_outgoing: Generated<boolean>; created_at: CreatedAt }
export interface DomainsTable { id: Id; company_id: number; name: string; dkim_selector: string; dkim_private_key: string; dkim_public_key: string; created_at: CreatedAt }
export interface DepartmentsTable { id: Id; company_id: number; parent_id: number | null; name: string; sort: Generated<number>; created_at: CreatedAt }
export interface UsersTable {
  id: Id; company_id: number; domain_id: number; department_id: number | null; email: string; password_hash: string;
  name: Generated<string>; role: Generated<'user' | 'admin'>; job_title: Generated<string>; phone: Generated<string>;
  quota_bytes: Generated<number>; used_bytes: Generated<number>; auto_archive_days: ColumnType<number | null, number | null | undefined, number | null>; language: 'zh' | 'en' | null; status: Generated<'active' | 'disabled'>; created_at: CreatedAt;
  avatar_hash: ColumnType<string | null, string | null | undefined, string | null>; totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_pending: ColumnType<string | null, string | null | undefined, string | null>; backup_email: ColumnType<string | null, string | null | undefined, string | null>;
  security_question: ColumnType<string | null, string | null | undefined, string | null>; security_answer_hash: ColumnType<string | null, string | null | undefined, string | null>;
  password_changed_at: Generated<Date>; totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}
export interface AliasesTable { id: Id; company_id: number; address: string; user_id: number }
export interface MailGroupsTable { id: Id; company_id: number; address: string; name: string; department_id: number | null }
export interface MailGroupMembersTable { group_id: number; user_id: number }
export interface SessionsTable {
  id: Id; user_id: number; token_hash: string; ip: Generated<string>; user_agent: Generated<string>; created_at: CreatedAt; last_seen_at: Generated<Date>; expires_at: Date;
  /** Migration 006: the login session this bound-mailbox session was opened from. */
  link_root_id: ColumnType<number | null, number | null | undefined, number | null>;
}
export interface AuthFailuresTable { key: string; count: number; window_start: Date }
export interface FoldersTable { user_id: number; mid: number; parent_mid: number | null; name: string; depth: number; unread: Generated<number>; total: Generated<number>; convs: Generated<number> }
export interface BlobsTable { hash: string; size: number; refcount: Generated<number>; created_at: CreatedAt; data: Buffer | null }
export interface MailContentsTable {
  id: Id; blob_hash: string; message_id: string; in_reply_to: string; references_list: string; subject: string;
  from_name: string; from_address: string; to_list: Json<Address[]>; cc_list: Json<Address[]>; reply_to: Json<Address[]>;
  sent_at: Date | null; snippet: string; html: string;
  /** '' when `text_tail` is set: read a content's text with `contentText` (message.repository.ts), never this column. */
  text_body: string; text_tail: number | null; attachments: Json<StoredAttachment[]>;
  remote_images: boolean; urgent: boolean; parse_error: string | null; thread_subject: Generated<string>; people_key: Generated<string>; created_at: CreatedAt;
}
/** A mail's search lexemes (GIN), written by the search indexer. */
export interface SearchLexemesTable { content_id: number; search: string }
/** Contents the search indexer has still to tokenise (migration 037): queued by their delivery. */
export interface SearchPendingTable { content_id: number }
export interface MessagesTable {
  id: Id; user_id: number; folder_mid: number; content_id: number; blob_hash: string; size: number;
  received_at: ColumnType<Date, Date | undefined, Date>; seen: Generated<boolean>; star: Generated<boolean>; urgent: Generated<boolean>;
  answered: Generated<boolean>; forwarded: Generated<boolean>; has_attach: Generated<boolean>; delivery_state: string | null;
  bcc: ColumnType<Address[], string | undefined, string>; note: Generated<string>; images_allowed: Generated<boolean>;
  send_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  auth_results: ColumnType<StoredAuthResults | null, string | null | undefined, string | null>;
  /** Migration 025: the mailbox's conversation this mail belongs to (features/conversation). */
  conv_id: Generated<number>;
}
export interface TagsTable { id: Id; user_id: number; name: string; color: Generated<string> }
export interface MessageTagsTable { message_id: number; tag_id: number }
export interface OutboxTable {
  /** Null once a finished job's blob has been collected (migration 024); held and queued jobs always have theirs. */
  id: Id; message_id: number | null; company_id: number; blob_hash: string | null; mail_from: string; rcpt: string; idempotency_key: string;
  status: Generated<'held' | 'queued' | 'sent' | 'failed'>; attempts: Generated<number>; next_attempt_at: Generated<Date>; last_error: Generated<string>;
  created_at: CreatedAt; updated_at: Generated<Date>; sender_id: number | null; remote_host: Generated<string>;
}
export interface UploadsTable { id: Id; user_id: number; blob_hash: string; name: string; size: number; content_type: string; created_at: CreatedAt }
export interface DispatchesTable { message_id: number; user_id: number; state: 'scheduled' | 'held'; send_at: Date }
export interface SendRecipientsTable {
  id: Id; sent_id: number; address: string; kind: 'local' | 'external'; copy_id: number | null; outbox_id: number | null;
  recalled: Generated<boolean>; created_at: CreatedAt;
}

/**
 * SPF, DKIM and DMARC as checked when a mail came in through MX (issue 12).
 * Only mail that crossed MX has one, so `external` is true; local mail keeps NULL.
 */
export interface StoredAuthResults {
  external: boolean;
  /** pass: the From domain is authenticated; fail: it is not and its owner says so; none: nothing to tell. */
  verdict: 'pass' | 'fail' | 'none';
  spf: string;
  dkim: string;
  dmarc: string;
  /** The domain of a passing DKIM signature aligned with the From domain, if any. */
  dkimDomain: string | null;
  fromDomain: string;
  /** The DMARC policy that applied (after pct), or null without a record. */
  policy: string | null;
  /** Where it was filed: its folder as usual, or Spam by a DMARC quarantine or a hosted From. */
  action: 'deliver' | 'quarantine';
}
/** One attachment as found in the raw message; `index` is its position among mailparser's attachments. */
export interface StoredAttachment { index: number; name: string; size: number; contentType: string; cid: string | null; inline: boolean }

export interface ContactGroupsTable { id: Id; user_id: number; name: string; created_at: CreatedAt }
export interface ContactsTable {
  id: Id; user_id: number; name: string; email: string; phone: Generated<string>; company: Generated<string>; job_title: Generated<string>;
  job_number: Generated<string>; important: Generated<boolean>; initial: string; sort_key: string; created_at: CreatedAt; updated_at: Generated<Date>;
}
export interface ContactGroupMembersTable { group_id: number; contact_id: number }
export interface SenderRulesTable { user_id: number; kind: 'block' | 'allow'; pattern: string; created_at: CreatedAt }

export interface RecoveryCodesTable { user_id: number; code_hash: string; used_at: Date | null }
export interface AuthTicketsTable {
  ticket_hash: string; user_id: number; purpose: 'login' | 'bind' | 'reset'; session_id: number | null; attempts: Generated<number>;
  ip: Generated<string>; user_agent: Generated<string>; expires_at: Date; created_at: CreatedAt;
}
export interface EmailCodesTable { user_id: number; purpose: 'login' | 'reset' | 'backup'; address: string; code_hash: string; attempts: Generated<number>; sent_at: Generated<Date>; expires_at: Date }
export interface UserSettingsTable {
  user_id: number; notify_new_mail: Generated<boolean>; quiet_enabled: Generated<boolean>; quiet_start: Generated<number>; quiet_end: Generated<number>;
  time_zone: Generated<string>; notify_folders: ColumnType<string[], string | undefined, string>; updated_at: Generated<Date>;
  /** Migration 025: the lists show one row per conversation. */
  conversation_view: Generated<boolean>;
}
export interface PushSubscriptionsTable { id: Id; user_id: number; session_id: number | null; endpoint: string; p256dh: string; auth: string; created_at: CreatedAt }
export interface AppKeysTable { name: string; value: ColumnType<unknown, string, string>; created_at: CreatedAt }
export interface MailboxLinksTable { user_id: number; linked_user_id: number; created_at: CreatedAt }
export interface WechatBindingsTable { openid: string; unionid: string | null; user_id: number; created_at: CreatedAt }

export interface Database {
  customers: CustomersTable;
  companies: CompaniesTable;
  domains: DomainsTable;
  departments: DepartmentsTable;
  users: UsersTable;
  aliases: AliasesTable;
  mail_groups: MailGroupsTable;
  mail_group_members: MailGroupMembersTable;
  sessions: SessionsTable;
  auth_failures: AuthFailuresTable;
  folders: FoldersTable;
  blobs: BlobsTable;
  mail_contents: MailContentsTable;
  mail_search: SearchLexemesTable;
  search_pending: SearchPendingTable;
  messages: MessagesTable;
  tags: TagsTable;
  message_tags: MessageTagsTable;
  outbox: OutboxTable;
  uploads: UploadsTable;
  dispatches: DispatchesTable;
  send_recipients: SendRecipientsTable;
  contact_groups: ContactGroupsTable;
  contacts: ContactsTable;
  contact_group_members: ContactGroupMembersTable;
  sender_rules: SenderRulesTable;
  recovery_codes: RecoveryCodesTable;
  auth_tickets: AuthTicketsTable;
  email_codes: EmailCodesTable;
  user_settings: UserSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  app_keys: AppKeysTable;
  mailbox_links: MailboxLinksTable;
  wechat_bindings: WechatBindingsTable;
}

export type User = Selectable<UsersTable>;
export type NewMessage = Insertable<MessagesTable>;
export type MailContent = Selectable<MailContentsTable>;
