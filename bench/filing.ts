import fs from 'node:fs';
import { loadConfig } from '../apps/server/src/config.js';
import { openServices } from '../apps/server/src/runtime.js';
import { fileMail } from '../apps/server/src/features/message/filing.repository.js';
import { createUsers, freshEnv } from './lib.js';

// The filing statement alone (features/message/filing.repository.ts): batches of five mails
// filed one after another on one connection, as the filing thread does, and the CPU that
// costs per mail in this process (building and sending the statement) and in its
// PostgreSQL backend. SHAPE=html (default): 20 KB of HTML and 10 KB of text with quotes and
// backslashes, as newsletters and replies carry; SHAPE=plain: bench-peer/blast.py's 10 KB
// of letters and no HTML, the mail's bytes in its blob row, and its text both ways (below). PostgreSQL only (DATABASE_URL): the backend's CPU is read from /proc.
if (!process.env.DATABASE_URL) throw new Error('bench:filing needs DATABASE_URL (PostgreSQL)');

const { env, cleanup } = await freshEnv('filingab');
await createUsers(env, 'bench.test', 3);
const { services, close } = await openServices(loadConfig(env));
const db = services.db;
const userId = (await db.selectFrom('users').select('id').where('email', '=', 'user0@bench.test').executeTakeFirstOrThrow()).id;
const kind = process.env.SHAPE === 'plain' ? 'plain' : 'html';
const para = kind === 'html' ? '<p style="margin:0 0 12px;font-family:\'Segoe UI\',Arial">Quarterly <a href="https://example.org/x?a=1&amp;b=2" target="_blank">report</a> "quoted" \\ back</p>\n' : 'abcdefghij klmnop\nqrstu vwxyz\n';
const html = kind === 'html' ? para.repeat(Math.ceil(20_000 / para.length)) : '';
// The plain letter is blast.py's: 10,000 random characters of 'abcdefghij klmnop\n', which lz4 cannot shrink much.
let seed = 42;
const letter = () => Array.from({ length: 10_000 }, () => 'abcdefghij klmnop\n'[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 18]).join('');
const text = kind === 'html' ? 'Quarterly report "quoted" \\ back\n'.repeat(300) : letter();
const parsed = await services.parser.parse(Buffer.from('From: a@b.example\r\nSubject: s\r\n\r\nbody\r\n'), 'a@b.example');
let n = 0;
// SHAPE=plain also files each mail's bytes in its blob row, as ingest does for mail up to 64 KiB, and
// alternates two layouts round by round: its text stored again in text_body ('text', before migration
// 043), and read from the blob's tail ('tail', what ingest does now for such a letter).
const body = Buffer.from(text.replace(/\n/g, '\r\n'));
const raw = Buffer.concat([Buffer.from('From: a@b.example\r\nTo: c@d.example\r\nSubject: s\r\n\r\n'), body]);
type Layout = 'text' | 'tail';
const batch = (layout: Layout = 'text') => {
  const contents = Array.from({ length: 5 }, () => {
    const content = { ...parsed, subject: `s${++n}`, messageId: `m${n}@x`, text, html };
    return kind === 'plain' && layout === 'tail' ? { hash: `h${n}`, content: { ...content, text: '' }, textTail: body.length } : { hash: `h${n}`, content };
  });
  return {
    blobs: contents.map((c) => ({ hash: c.hash, size: 30000, n: 1, data: kind === 'plain' ? raw : Buffer.alloc(100, 1) })),
    contents,
    rows: contents.map((c, i) => ({ user_id: userId, folder_mid: 0, content: i + 1, blob_hash: c.hash, size: 30000, received_at: new Date(), seen: false, star: false, urgent: false, has_attach: false, delivery_state: null, bcc: '[]', auth_results: null, active_only: false })),
  };
};
const backendCpu = () => {
  let ms = 0;
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('mw_bench_filingab')) continue;
      const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10;
    } catch { /* gone */ }
  }
  return ms;
};
const layouts: Layout[] = kind === 'plain' ? ['text', 'tail'] : ['text'];
const clientMs = new Map<Layout, number[]>(layouts.map((l) => [l, []]));
const dbMs = new Map<Layout, number[]>(layouts.map((l) => [l, []]));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const BATCHES = 300;
await db.connection().execute(async (conn) => {
  // Warm: the statement prepared, its plan made, the JIT done.
  for (let i = 0; i < 100; i++) for (const l of layouts) await fileMail(conn, batch(l));
  for (let round = 0; round < ROUNDS; round++) {
    for (const layout of round % 2 ? [...layouts].reverse() : layouts) {
      const b0 = backendCpu();
      const c0 = process.cpuUsage();
      for (let i = 0; i < BATCHES; i++) await fileMail(conn, batch(layout));
      const c = process.cpuUsage(c0);
      clientMs.get(layout)!.push((c.user + c.system) / 1000 / (BATCHES * 5));
      dbMs.get(layout)!.push((backendCpu() - b0) / (BATCHES * 5));
    }
  }
});
const med = (xs: number[]) => Number([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(3));
const figures = (l: Layout) => ({ client_cpu_ms_per_mail: med(clientMs.get(l)!), db_cpu_ms_per_mail: med(dbMs.get(l)!) });
console.log(JSON.stringify({ bench: 'filing', shape: kind, mails: ROUNDS * BATCHES * 5 * layouts.length, ...figures('text'), ...(kind === 'plain' ? { text_in_blob: figures('tail') } : {}) }));
await close();
await cleanup();
