import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { simpleParser } from 'mailparser';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_KDF_MIN_ITERATIONS } from '@mailwing/shared';
import { hashPassword } from '../src/features/account/password.js';
import { downloadsOf } from '../src/features/company-life/export.repository.js';
import { exportsOfCustomer, openExport, requestExport } from '../src/features/company-life/export.service.js';
import { enqueueProvision } from '../src/features/company-life/provision.service.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCustomer, lifeNode } from './company-life-helpers.js';

// The data export before cancellation (issue 19 §7): a background job builds a zip in the blob
// store — one .mbox per folder per mailbox, contacts.vcf, calendar.ics, notes.json — delivered as a
// signed link valid 7 days, each download logged. The .mbox files are opened with Python's standard
// `mailbox` module and every message with mailparser.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); }, 240_000);
afterAll(async () => s?.stop(), 120_000);

const DAY = 86_400_000;
const db = () => s.rt.services.db;

/** Python's mailbox.mbox opens the file; each message comes back as the raw bytes it stored. */
function openMbox(file: string): { from: string; raw: Buffer }[] {
  const out = execFileSync('python3', ['-c', `
import mailbox, json, sys, base64
box = mailbox.mbox(sys.argv[1], create=False)
print(json.dumps([{"from": box.get_message(k).get_from(), "raw": base64.b64encode(box.get_bytes(k)).decode()} for k in box.keys()]))
`, file]);
  return (JSON.parse(out.toString()) as { from: string; raw: string }[]).map((m) => ({ from: m.from, raw: Buffer.from(m.raw, 'base64') }));
}
/** mboxrd: one '>' came in front of every line that began with >*"From "; take it off again. */
const unescape = (raw: Buffer) => Buffer.from(raw.toString('latin1').replace(/^>(>*From )/gm, '$1'), 'latin1');

describe('export', () => {
  it('archives every message of every folder, contacts, calendar and notes; a signed, logged link valid 7 days', async () => {
    const customerId = await addCustomer(db(), 'leaving@outside.test');
    await db().transaction().execute(async (trx) => enqueueProvision(trx, {
      orderId: 8001, customerId, companyName: '出口 Export Co', domain: 'export.test', plan: 'standard', seats: 5, expiresAt: new Date(Date.now() + 300 * DAY),
      adminLocalPart: 'admin', adminPasswordHash: await hashPassword('export-pass-1'),
    }));
    await s.rt.services.companyLife.tick();
    const admin = await s.login('admin@export.test', 'export-pass-1');

    // Mail with lines an mbox must escape, a Chinese subject, an attachment; one in a custom folder.
    const bodies = ['From the start of a line\n>From quoted\nplain', '季度报告 body', 'third'];
    for (const [i, text] of bodies.entries()) {
      await s.send({ from: 'partner@outside.test', to: 'admin@export.test', subject: `Export ${i} 季度`, text,
        attachments: i === 2 ? [{ filename: 'a.bin', content: randomBytes(3000) }] : [] });
    }
    const folder = await s.post<{ mid: string }>('/h5/mboxop/create-folder', { name: 'Projects' }, admin);
    const inbox = await s.get<{ list: { id: string; subject: string }[] }>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, admin);
    const moved = inbox.data.list.find((m) => m.subject === 'Export 2 季度')!;
    expect((await s.post('/h5/mailop/move', { ids: moved.id, to: folder.data.mid }, admin)).code).toBe(200);
    expect((await s.post('/h5/write/send', { to: 'partner@outside.test', subject: 'Sent one', text: 'out' }, admin)).code).toBe(200);
    expect((await s.post('/h5/contact/save', { name: 'Partner', email: 'partner@outside.test' }, admin)).code).toBe(200);
    expect((await s.post('/h5/calendar/create', { title: 'Handover', start: '2027-03-01T09:00', end: '2027-03-01T10:00', tz: 'Asia/Shanghai' }, admin)).code).toBe(200);
    expect((await s.post('/h5/note/create', { title: 'Plain note', html: '<p>readable</p>' }, admin)).code).toBe(200);
    const cipher = randomBytes(64).toString('base64');
    expect((await s.post('/h5/note/create', {
      locked: 1, cipher, iv: randomBytes(12).toString('base64'), salt: randomBytes(16).toString('base64'), iterations: NOTE_KDF_MIN_ITERATIONS,
      newProof: randomBytes(32).toString('base64'),
    }, admin)).code).toBe(200);

    let now = Date.now();
    const node = lifeNode(s.rt.services, () => new Date(now));
    const { exportId } = await requestExport(db(), customerId, new Date(now));
    expect((await exportsOfCustomer(db(), customerId, new Date(now)))[0]).toMatchObject({ id: exportId, state: 'pending', link: null });
    // Asking again while it is built gives the same one.
    expect((await requestExport(db(), customerId, new Date(now))).exportId).toBe(exportId);
    await node.tick();
    const [view] = await exportsOfCustomer(db(), customerId, new Date(now));
    expect(view).toMatchObject({ id: exportId, state: 'done', downloads: 0 });
    expect(view!.linkExpiresAt).toBe(Math.floor((now + 7 * DAY) / 1000));

    const res = await fetch(`${s.base}${view!.link}`, { headers: { 'user-agent': 'export-test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`mailwing-export-${exportId}.zip`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files).sort();
    const base = Object.keys(files).find((n) => n.endsWith('/contacts.vcf'))!.replace(/contacts\.vcf$/, '');
    expect(base).toMatch(/^出口 Export Co-\d+\/admin@export\.test\/$/);
    expect(names).toEqual(expect.arrayContaining([`${base}mail/Inbox.mbox`, `${base}mail/Sent.mbox`, `${base}mail/Projects.mbox`, `${base}mail/Drafts.mbox`, `${base}calendar.ics`, `${base}notes.json`]));

    // Every folder's .mbox holds exactly the folder's messages, byte for byte once unescaped.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-mbox-'));
    const folders = (await sql<{ mid: number; name: string }>`SELECT f.mid, f.name FROM folders f JOIN users u ON u.id = f.user_id WHERE u.email = 'admin@export.test'`.execute(db())).rows;
    let total = 0;
    for (const f of folders) {
      const entry = names.find((n) => n === `${base}mail/${f.name}.mbox`)!;
      expect(entry, f.name).toBeDefined();
      const file = path.join(dir, `${f.mid}.mbox`);
      await fs.writeFile(file, files[entry]!);
      const parsed = openMbox(file);
      const stored = (await sql<{ blob_hash: string }>`SELECT m.blob_hash FROM messages m JOIN users u ON u.id = m.user_id WHERE u.email = 'admin@export.test' AND m.folder_mid = ${f.mid} ORDER BY m.id`.execute(db())).rows;
      expect(parsed.length, f.name).toBe(stored.length);
      for (const [i, m] of parsed.entries()) {
        const original = (await s.rt.services.blobs.get(stored[i]!.blob_hash)).toString('latin1').replace(/\r\n/g, '\n');
        expect(unescape(m.raw).toString('latin1').replace(/\n+$/, '')).toBe(original.replace(/\n+$/, ''));
        const mail = await simpleParser(unescape(m.raw));
        expect(mail.messageId).toBeTruthy();
      }
      total += parsed.length;
    }
    // Three received (two in Inbox, one moved to Projects) and one sent.
    expect(total).toBe(4);
    const inboxMail = await Promise.all(openMbox(path.join(dir, '0.mbox')).map((m) => simpleParser(unescape(m.raw))));
    expect(inboxMail.map((m) => m.subject).sort()).toEqual(['Export 0 季度', 'Export 1 季度']);
    expect(inboxMail.find((m) => m.subject === 'Export 0 季度')!.text).toContain('From the start of a line\n>From quoted');
    const projects = await Promise.all(openMbox(path.join(dir, `${folder.data.mid}.mbox`)).map((m) => simpleParser(unescape(m.raw))));
    expect(projects[0]!.attachments[0]!.size).toBe(3000);
    await fs.rm(dir, { recursive: true, force: true });

    const text = (n: string) => Buffer.from(files[`${base}${n}`]!).toString('utf8');
    expect(text('contacts.vcf')).toContain('partner@outside.test');
    expect(text('calendar.ics')).toContain('SUMMARY:Handover');
    const notes = JSON.parse(text('notes.json')) as { locked: boolean; title?: string; cipher?: string }[];
    expect(notes.find((n) => !n.locked)!.title).toBe('Plain note');
    expect(notes.find((n) => n.locked)).toMatchObject({ cipher });
    expect(notes.find((n) => n.locked)!.title).toBeUndefined();

    // Logged; a tampered or expired link is refused.
    const log = await downloadsOf(db(), exportId);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ ip: '127.0.0.1', user_agent: 'export-test' });
    expect((await exportsOfCustomer(db(), customerId, new Date(now)))[0]!.downloads).toBe(1);
    const bad = await (await fetch(`${s.base}${view!.link!.replace(/s=.{4}/, 's=AAAA')}`)).json() as { code: number; reason: string };
    expect(bad).toMatchObject({ code: 403, reason: 'export.link_invalid' });
    const q = Object.fromEntries(new URL(view!.link!, s.base).searchParams) as Record<string, string>;
    await expect(openExport(db(), { id: Number(q.id), e: Number(q.e), s: q.s! }, { ip: '', userAgent: '' }, new Date(now + 7 * DAY + 1000))).rejects.toMatchObject({ reason: 'export.link_expired' });

    // After 7 days the archive's blob is released and the link is gone.
    const hash = (await sql<{ blob_hash: string }>`SELECT blob_hash FROM customer_exports WHERE id = ${exportId}`.execute(db())).rows[0]!.blob_hash;
    now += 7 * DAY + 1000;
    await node.tick();
    expect((await exportsOfCustomer(db(), customerId, new Date(now)))[0]).toMatchObject({ state: 'expired', link: null });
    await s.rt.services.blobs.collect();
    expect(await s.rt.services.blobs.has(hash)).toBe(false);
    expect((await fetch(`${s.base}${view!.link}`).then((r) => r.json()) as { reason: string }).reason).toBe('export.link_expired');
  });
});
