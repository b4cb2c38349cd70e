import { expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, sendMail } from '../helpers';

// Issue 12, finding 1, as the attacker ran it: a script uploaded by one account, an
// XSL page mailed to another, and the victim opening that attachment in the app's
// origin. If the page ran, the script would read the victim's token from storage.

const suite = phoneSuite('active-content');

const PAYLOAD = `document.title = 'PWNED ' + Object.keys(localStorage).join(','); window.__pwned = true;`;

async function uploadAs(token: string, name: string, type: string, body: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([body], { type }), name);
  const res = await fetch(`${BASE_URL}/h5/write/upload?t=${token}`, { method: 'POST', body: form });
  const r = (await res.json()) as { code: number; data: { id: string } };
  if (r.code !== 200) throw new Error(`upload refused: ${JSON.stringify(r)}`);
  return r.data.id;
}

it('an uploaded script and a mailed XSL page run nothing on our origin', async () => {
  const bob = await apiToken('bob@demo.test');
  const scriptId = await uploadAs(bob, 'payload.txt', 'application/x-javascript', PAYLOAD);
  const scriptUrl = `/h5/write/file?id=${scriptId}&t=${bob}`;
  const xsl = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>invoice</title><script src="${scriptUrl.replace(/&/g, '&amp;')}"></script></head><body>invoice</body></html>`;
  const subject = `Invoice ${Date.now()}`;
  await sendMail({ from: 'billing@evil.test', to: 'alice@demo.test', subject, text: 'see attached',
    attachments: [{ filename: 'invoice.xsl', content: xsl, contentType: 'text/xsl' }, { filename: 'invoice2.xml', content: xsl, contentType: 'application/xhtml+xml' }] });

  const page = suite.page;
  await login(page, 'alice@demo.test');
  const alice = await page.evaluate(() => Object.values(localStorage).join(' '));
  expect(alice.length).toBeGreaterThan(20);

  const aliceToken = await apiToken('alice@demo.test');
  let mailId = '';
  for (let i = 0; i < 50 && !mailId; i++) {
    const list = await api<{ list: { id: string; subject: string }[] }>('/mail/list', { token: aliceToken, query: { mid: '0', size: '20' } });
    mailId = list.list.find((m) => m.subject === subject)?.id ?? '';
    if (!mailId) await page.waitForTimeout(200);
  }
  expect(mailId).not.toBe('');
  const mail = await api<{ attachments: { id: string; name: string }[] }>('/read/index', { token: aliceToken, query: { mid: mailId } });

  for (const a of mail.attachments) {
    // The link the victim taps: the attachment shown inline, with her own token.
    const url = `${BASE_URL}/h5/attach/download?id=${a.id}&inline=1&t=${aliceToken}`;
    const head = await fetch(url);
    expect(head.headers.get('content-type')).toBe('application/octet-stream');
    expect(head.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(head.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    // Chromium saves it instead of rendering it.
    const download = page.waitForEvent('download', { timeout: 10_000 });
    await page.goto(url).catch(() => undefined);
    expect((await download).suggestedFilename()).toBe(a.name);
  }
  // The uploaded script itself, opened directly: plain text at most, never script.
  const script = await fetch(`${BASE_URL}${scriptUrl}`);
  expect(script.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(script.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");

  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  await page.locator('.mw-mail-row').first().waitFor();
  expect(await page.title()).not.toContain('PWNED');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
});

it('the sandbox is a second wall: even served as XSL inline, the page runs nothing', async () => {
  const bob = await apiToken('bob@demo.test');
  const scriptId = await uploadAs(bob, 'p2.txt', 'text/plain', PAYLOAD);
  const page = suite.page;
  // Rewrite the real answer on the wire as a server with the old denylist sent it:
  // text/xsl, inline. What remains is our sandbox policy and nosniff.
  await page.route('**/h5/write/file?**', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers(), 'content-type': 'text/xsl', 'content-disposition': 'inline' };
    const xsl = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script src="/h5/write/file?id=${scriptId}&amp;t=${bob}&amp;js=1"></script><body>x</body></html>`;
    if (route.request().url().includes('js=1')) return route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/javascript' } });
    return route.fulfill({ response, headers, body: xsl });
  });
  const errors: string[] = [];
  page.on('console', (m) => errors.push(m.text()));
  await page.goto(`${BASE_URL}/h5/write/file?id=${scriptId}&t=${bob}`);
  await page.waitForTimeout(1_000);
  expect(await page.title()).not.toContain('PWNED');
  // Inside the sandbox the page has an opaque origin: it cannot even see our storage.
  const storage = await page.evaluate(() => { try { return String(localStorage.length); } catch (e) { return `blocked: ${(e as Error).name}`; } }).catch(() => 'no script access');
  expect(storage).toMatch(/^(blocked|no script access)/);
  await page.unroute('**/h5/write/file?**');
});
