import type { Logger } from 'pino';
import type { BlobStore } from './blob/blob-store.js';
import { BlobService } from './blob/blob.service.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { CompanyService } from './features/admin/company.service.js';
import { AuthService } from './features/auth/auth.service.js';
import { MailboxService } from './features/mailbox/mailbox.service.js';
import { IngestService } from './features/message/ingest.service.js';
import { MessageService } from './features/message/message.service.js';
import { ParsePool } from './features/message/parse-pool.js';

export interface Services {
  config: Config;
  db: Db;
  blobs: BlobService;
  auth: AuthService;
  mailbox: MailboxService;
  messages: MessageService;
  ingest: IngestService;
  companies: CompanyService;
  parser: ParsePool;
}

/** Wires the feature services together; no I/O happens here. */
export function createServices(config: Config, db: Db, store: BlobStore, log?: Logger): Services {
  const blobs = new BlobService(db, store);
  const mailbox = new MailboxService(db);
  const parser = new ParsePool(config.parseWorkers, 30_000, log);
  return {
    config, db, blobs, mailbox, parser,
    auth: new AuthService(db, config.sessionDays),
    messages: new MessageService(db, blobs, mailbox),
    // PGlite has one connection, so one commit at a time; a server overlaps several.
    ingest: new IngestService(db, blobs, parser, config.databaseUrl ? 4 : 1),
    companies: new CompanyService(db),
  };
}
