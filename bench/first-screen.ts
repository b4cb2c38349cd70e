import { existsSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { chromium, type Browser } from 'playwright-core';
import { createUsers, freshEnv, percentile, root, round, startServer } from './lib.js';

// Issue 15's first-screen goal, measured as a returning user meets it: a signed-in session
// (the token in localStorage), an empty HTTP cache, and the Inbox route. For each run, a new
// browser context (so no cache, no service worker) opens the app and we read, from the page's
// own clock: first contentful paint (the shell), the first inbox row in the DOM, and the
// largest contentful paint. Once on plain loopback and once with DevTools' classic
// "Fast 3G" profile (562.5 ms RTT, 1.6 Mbps down, 750 kbps up, each × 0.9).
// Needs the built client (npm run build) and Chromium at /usr/bin/chromium.
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8, uploadThroughput: (750 * 1024 * 0.9) / 8 };
const step = (what: string) => console.error(`[first-screen ${new Date().toISOString().slice(11, 19)}] ${what}`);

if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) throw new Error('build the web client first: npm run build');

const { env, cleanup } = await freshEnv('first-screen');
const [email] = await createUsers(env, 'bench.test', 1);
const server = await startServer(env, 18491, 12991);
let browser: Browser | undefined;
try {
  const base = `http://127.0.0.1:${server.httpPort}`;
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort, secure: false, ignoreTLS: true });
  for (let i = 0; i < 30; i++) {
    await transport.sendMail({ from: `Sender ${i} <s${i}@outside.example>`, to: email, subject: `季度报告 Quarterly report ${i}`, text: `Body of message ${i}. `.repeat(20) });
  }
  transport.close();
  const login = await (await fetch(`${base}/h5/login/h5`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${email}&password=bench-password` })).json() as { data: { token: string } };
  const token = login.data.token;

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });

  async function once(throttle: boolean): Promise<{ fcp: number; firstRow: number; lcp: number; requests: number; bytes: number }> {
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', serviceWorkers: 'block' });
    // Strings, not functions: this file compiles without the DOM's types.
    await context.addInitScript({ content: `
      localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))});
      localStorage.setItem('currentEmailName', ${JSON.stringify(JSON.stringify(email))});
      new PerformanceObserver((list) => { const last = list.getEntries().at(-1); if (last) window.__lcp = last.startTime; })
        .observe({ type: 'largest-contentful-paint', buffered: true });
      // The first row's time from the page's own clock: the frame after it enters the DOM.
      // (Asking the page over CDP once it is there would add however long the page's main
      // thread stays busy after it.)
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.mw-mail-row')) return;
        observer.disconnect();
        requestAnimationFrame(() => { window.__firstRow = performance.now(); });
      }).observe(document, { childList: true, subtree: true });` });
    const page = await context.newPage();
    let requests = 0;
    let bytes = 0;
    page.on('requestfinished', async (req) => {
      requests += 1;
      const sizes = await req.sizes().catch(() => null);
      if (sizes) bytes += sizes.responseBodySize + sizes.responseHeadersSize;
    });
    if (throttle) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    }
    await page.goto(`${base}/#/pages/list-tab/index`, { waitUntil: 'commit' });
    await page.waitForSelector('.mw-mail-row', { timeout: 60_000 });
    let firstRow: number | undefined;
    while (firstRow === undefined) firstRow = await page.evaluate<number | undefined>('window.__firstRow');
    // Let a late, larger paint (the list filling in) land before LCP is read.
    await page.waitForTimeout(300);
    const timings = await page.evaluate<{ fcp: number; lcp: number }>(`({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      lcp: window.__lcp ?? -1,
    })`);
    await context.close();
    return { ...timings, firstRow, requests, bytes };
  }

  const summary: Record<string, unknown> = {};
  for (const [name, throttle] of [['loopback', false], ['fast3g', true]] as const) {
    await once(throttle); // warms the server's own caches, not the browser's
    const runs: Awaited<ReturnType<typeof once>>[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(throttle));
    const med = (k: 'fcp' | 'firstRow' | 'lcp') => round(percentile(runs.map((r) => r[k]).sort((a, b) => a - b), 50), 0);
    summary[name] = { shell_fcp_ms: med('fcp'), first_row_ms: med('firstRow'), lcp_ms: med('lcp'), requests: runs[0]!.requests, transfer_kb: round(runs[0]!.bytes / 1024) };
    step(`${name}: ${JSON.stringify(summary[name])}`);
  }
  console.log(JSON.stringify({ bench: 'first-screen', runs: RUNS, ...summary, goal: { loopback_first_row_ms: 600, fast3g_first_row_ms: 2500, fast3g_shell_ms: 1000 } }));
} finally {
  await browser?.close();
  await server.stop();
  await cleanup();
}
