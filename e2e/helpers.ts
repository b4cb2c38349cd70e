import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ARTIFACTS, BASE_URL, DEMO_PASSWORD, SMTP_PORT } from './env';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A phone-sized context in English, with touch for pull-to-refresh. */
export async function phone(browser: Browser, options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, locale: 'en-US', acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[pageerror]', error.message));
  return { context, page };
}

/** One phone-sized Chromium page for a test file, with a screenshot kept when a test fails. */
export function phoneSuite(name: string): { readonly page: Page } {
  let browser: Browser | undefined;
  let current: Page | undefined;
  const suite = {
    get page(): Page {
      if (!current) throw new Error('the browser has not started');
      return current;
    },
  };
  beforeAll(async () => {
    browser = await launch();
    ({ page: current } = await phone(browser));
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(() => screenshot(suite.page, `${name}-${task.name}`));
  });
  return suite;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '_')}.png`), fullPage: true }).catch(() => undefined);
}

interface Envelope<T> {
  code: number;
  data: T;
  error?: unknown;
}

/** Calls the API from node, as another client or a script would. */
export async function api<T>(path: string, init: { token?: string; form?: Record<string, string>; query?: Record<string, string> } = {}): Promise<T> {
  const url = new URL(`${BASE_URL}/h5${path}`);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  if (init.token) url.searchParams.set('t', init.token);
  const res = await fetch(url, init.form ? { method: 'POST', body: new URLSearchParams(init.form) } : {});
  const body = (await res.json()) as Envelope<T>;
  if (body.code !== 200) throw new Error(`${path}: code ${body.code} ${JSON.stringify(body.error)}`);
  return body.data;
}

export async function apiToken(email: string): Promise<string> {
  const data = await api<{ token: string }>('/login/h5', { form: { email, password: DEMO_PASSWORD } });
  return data.token;
}

export async function inboxUnread(token: string): Promise<number> {
  const mbox = await api<{ system: Array<{ mid: string; count: number }> }>('/mbox/index', { token });
  return mbox.system.find((f) => f.mid === '0')?.count ?? 0;
}

/** Sends a message into our SMTP server, as another mail server would. */
export async function sendMail(message: SendMailOptions): Promise<void> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: SMTP_PORT,
    secure: false,
    ignoreTLS: true,
    tls: { rejectUnauthorized: false },
  });
  try {
    await transport.sendMail(message);
  } finally {
    transport.close();
  }
}

export async function login(page: Page, email: string, opts: { waitForMail?: boolean } = {}): Promise<void> {
  await page.goto(`${BASE_URL}/#/pages/login/index`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/#\/pages\/list-tab\/index/);
  // An admin's inbox may be empty: the console tests do not wait for a first row.
  if (opts.waitForMail ?? true) await page.locator('.mw-mail-row').first().waitFor();
}

/** The inbox tab's badge text, or null when there is none. */
export async function tabBadge(page: Page): Promise<string | null> {
  const badge = page.locator('.mw-tabbar .adm-tab-bar-item').first().locator('.adm-badge-content');
  return (await badge.count()) > 0 ? badge.textContent() : null;
}

/**
 * Pull-to-refresh listens to touch gestures only, which Playwright's mouse
 * cannot make; drive real touch events through the DevTools protocol.
 */
export async function pullDown(page: Page, selector = '.mw-mail-list'): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  const x = box.x + box.width / 2;
  const y = box.y + 20;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= 12; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + i * 25 }] });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Polls until check() is true (for hooks, where expect.poll is not available). */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Buttons matching `selector` that are shown but shorter than a 44 px touch target. Heights
 * are compared to a tenth of a pixel: a sheet still settling, or a CJK font's line box, can
 * lay a 44 px button out at 43.9999 px.
 */
export async function smallTargets(page: Page, selector: string): Promise<Array<{ text: string; h: number }>> {
  return page.locator(selector).evaluateAll((els, min) => els
    .map((el) => ({ text: (el.textContent ?? '').trim(), h: Math.round(el.getBoundingClientRect().height * 10) / 10 }))
    .filter((b) => b.h > 0 && b.h < min), 44);
}
