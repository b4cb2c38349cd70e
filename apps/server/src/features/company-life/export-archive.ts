import { Zip, ZipDeflate } from 'fflate';
import type { StagedBlob } from '../../blob/blob-store.js';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import type { CalendarIcsService } from '../calendar/calendar-ics.service.js';
import type { ContactService } from '../contact/contact.service.js';
import { listFolders, SYSTEM_FOLDER_NAMES } from '../mailbox/mailbox.repository.js';
import * as repo from './export.repository.js';

export interface ArchiveDeps { db: Db; blobs: BlobService; contacts: ContactService; calendarIcs: CalendarIcsService }

const PAGE = 200;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The asctime() date of an mbox "From " line, in UTC. */
function asctime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/**
 * One message in mboxrd form (the variant that round-trips): a "From " separator line, the message
 * with LF line ends, every line that starts with ">*From " given one more ">", and a blank line after.
 */
export function mboxEntry(raw: Buffer, sender: string, at: Date): Buffer {
  const text = raw.toString('latin1').replace(/\r\n/g, '\n').replace(/^(>*From )/gm, '>$1');
  const envelope = /^[^\s@]+@[^\s@]+$/.test(sender) ? sender : 'MAILER-DAEMON';
  return Buffer.from(`From ${envelope} ${asctime(at)}\n${text}${text.endsWith('\n') ? '' : '\n'}\n`, 'latin1');
}

/** A safe file name: no separators, controls or dots at the ends, at most 80 characters. */
function safe(name: string): string {
  return name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').replace(/^\.+|\.+$/g, '_').slice(0, 80) || '_';
}

/**
 * Streams a customer's data into a zip blob, one entry after another, so no mailbox is held in
 * memory: per mailbox `mail/<folder path>.mbox` (one per folder, every message in it), `contacts.vcf`,
 * `calendar.ics` (the calendar's own export), and `notes.json` (locked notes as their ciphertext).
 */
export async function buildArchive(d: ArchiveDeps, customerId: number, now: Date): Promise<{ staged: StagedBlob; messages: number }> {
  const writer = await d.blobs.store.stageStream();
  let pending: Promise<void> = Promise.resolve();
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) { failed = err; return; }
    const c = Buffer.from(chunk);
    pending = pending.then(() => writer.write(c));
  });
  // Back-pressure: wait for the blob writer after each piece handed to the zip.
  const drain = async () => {
    await pending;
    if (failed) throw failed;
  };
  const file = async (path: string, parts: () => AsyncIterable<Buffer>) => {
    const entry = new ZipDeflate(path, { level: 6 });
    entry.mtime = now;
    zip.add(entry);
    for await (const part of parts()) {
      entry.push(part);
      await drain();
    }
    entry.push(new Uint8Array(0), true);
    await drain();
  };
  async function* one(s: string | Promise<string>): AsyncIterable<Buffer> { yield Buffer.from(await s, 'utf8'); }

  let messages = 0;
  try {
    const boxes = await repo.mailboxesOf(d.db, customerId);
    for (const box of boxes) {
      const base = `${safe(box.company)}-${box.companyId}/${safe(box.email)}`;
      const folders = await listFolders(d.db, box.id);
      const byMid = new Map(folders.map((f) => [f.mid, f]));
      const pathOf = (mid: number): string => {
        const f = byMid.get(mid);
        if (!f) return String(mid);
        const name = safe(SYSTEM_FOLDER_NAMES[String(mid)] ?? f.name);
        return f.parent_mid === null ? name : `${pathOf(f.parent_mid)}/${name}`;
      };
      for (const f of folders) {
        await file(`${base}/mail/${pathOf(f.mid)}.mbox`, async function* () {
          let after = 0;
          for (;;) {
            const page = await repo.folderPage(d.db, box.id, f.mid, after, PAGE);
            for (const m of page) {
              yield mboxEntry(await d.blobs.get(m.blob_hash), m.from_address, m.received_at);
              messages += 1;
            }
            if (page.length < PAGE) return;
            after = page[page.length - 1]!.id;
          }
        });
      }
      await file(`${base}/contacts.vcf`, () => one(d.contacts.export(box.id, 'vcf')));
      await file(`${base}/calendar.ics`, () => one(d.calendarIcs.export(box.id, box.email)));
      const notes = await repo.notesOf(d.db, box.id);
      if (notes.length > 0) {
        const out = notes.map((n) => n.cipher !== null
          // Locked: only the ciphertext and what the owner's password needs to open it; the server never had the text.
          ? { id: n.id, locked: true, folder: n.folder, tags: n.tags, cipher: n.cipher, iv: n.iv, salt: n.salt, kdf: n.kdf, iterations: n.iterations, created: n.created_at, updated: n.updated_at }
          : { id: n.id, locked: false, folder: n.folder, tags: n.tags, title: n.title, html: n.html, created: n.created_at, updated: n.updated_at });
        await file(`${base}/notes.json`, () => one(JSON.stringify(out, null, 2)));
      }
    }
    zip.end();
    await drain();
    return { staged: await writer.finish(), messages };
  } catch (err) {
    zip.terminate();
    await pending.catch(() => undefined);
    await writer.abort();
    throw err;
  }
}

