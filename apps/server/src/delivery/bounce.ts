import { SystemFolder } from '@mailwing/shared';
import type { Db } from '../db/connect.js';
import type { IngestService } from '../features/message/ingest.service.js';
import { buildBounce, headerBlock } from './dsn.js';
import { senderDomain } from './outbox.repository.js';

export interface BounceTarget { senderId: number; mailFrom: string; rcpt: string; since: Date }

/** Puts a delivery status notification for one failed recipient into the sender's Inbox. */
export async function deliverBounce(deps: { db: Db; ingest: IngestService; hostname: string }, t: BounceTarget, raw: Buffer, diagnostic: string, remoteHost: string): Promise<void> {
  const domain = (await senderDomain(deps.db, t.senderId)) ?? deps.hostname;
  const headers = headerBlock(raw);
  const subject = /^subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(headers)?.[1]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  const dsn = await buildBounce({
    reportingHost: deps.hostname, domain, sender: t.mailFrom, recipient: t.rcpt, diagnostic, remoteHost,
    arrivalDate: t.since, originalHeaders: headers, originalSubject: subject,
  });
  await deps.ingest.deliver(dsn, '', [{ userId: t.senderId, folderMid: Number(SystemFolder.Inbox) }]);
}
