import { expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { login, phoneSuite, sendMail } from '../helpers';

const suite = phoneSuite('xss');

// Each vector would set __pwned on the app's window if anything in the mail ran.
const HOSTILE = `
<p>Hello Bob</p>
<script>window.top.__pwned = 'script'; parent.__pwned = 'script';</script>
<img src="x" onerror="window.top.__pwned = 'onerror'; parent.__pwned = 'onerror'">
<svg onload="parent.__pwned = 'svg'"><circle r="5"/></svg>
<body onload="parent.__pwned = 'body'">
<iframe srcdoc="<script>parent.parent.__pwned = 'iframe'</script>"></iframe>
<a id="js" href="javascript:window.top.__pwned = 'link'; parent.__pwned = 'link'">Click to win</a>
<a href="JaVaScRiPt:parent.__pwned='mixedcase'">Mixed case link</a>
<form action="javascript:parent.__pwned='form'"><button type="submit">Submit</button></form>
<div style="background:url(javascript:parent.__pwned='css')">styled</div>
`;

it('a hostile mail runs nothing, even when its links are clicked', async () => {
  const subject = `Prize notice ${Date.now()}`;
  await sendMail({ from: 'mallory@evil.test', to: 'bob@demo.test', subject, html: HOSTILE, text: 'Hello Bob' });
  await login(suite.page, 'bob@demo.test');
  const row = suite.page.locator('.mw-mail-row', { hasText: subject });
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  const frame = suite.page.locator('iframe.mw-mail-frame');
  await frame.waitFor();

  // The frame is sandboxed without scripts and carries its own CSP.
  const sandbox = await frame.getAttribute('sandbox');
  expect(sandbox).toBe('allow-same-origin');
  const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
  expect(srcdoc).toContain("default-src 'none'");

  const body = suite.page.frameLocator('iframe.mw-mail-frame');
  await body.locator('text=Hello Bob').waitFor();
  const links = body.locator('a');
  for (let i = 0; i < (await links.count()); i++) await links.nth(i).click({ timeout: 5_000 }).catch(() => undefined);
  const buttons = body.locator('button');
  for (let i = 0; i < (await buttons.count()); i++) await buttons.nth(i).click({ timeout: 5_000 }).catch(() => undefined);
  await suite.page.waitForTimeout(1_000);

  expect(await suite.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  // Still on the read page: nothing navigated the app away.
  expect(suite.page.url()).toContain('#/pages/read-mail/index');
});

it('the frame is a second wall: even unsanitised HTML cannot run', async () => {
  // Defence in depth: rewrite the real server's answer on the wire so the
  // frame gets HTML the sanitiser would never let through. What stops it then
  // is the frame's sandbox and CSP, and the page's own CSP, which a srcdoc
  // frame inherits (the sandbox attribute itself is checked above).
  await suite.page.route('**/h5/read/index?**', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { code: number; data: { html: string } };
    body.data.html = `<p>Raw</p>${HOSTILE}`;
    await route.fulfill({ response, json: body });
  });
  try {
    await suite.page.reload();
    const body = suite.page.frameLocator('iframe.mw-mail-frame');
    await body.locator('text=Raw').waitFor();
    await body.locator('#js').click({ timeout: 5_000 }).catch(() => undefined);
    await suite.page.waitForTimeout(1_000);
    expect(await suite.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  } finally {
    await suite.page.unroute('**/h5/read/index?**');
  }
});

it('an ordinary link in a mail opens in a new tab, leaving the app where it was', async () => {
  const subject = `Link notice ${Date.now()}`;
  // A link to this machine's own server: the test never reaches outside.
  const target = `${BASE_URL}/h5/uniapp/version`;
  await sendMail({ from: 'carol@partner.test', to: 'bob@demo.test', subject, html: `<p>See <a href="${target}">the version</a></p>` });
  await suite.page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  const row = suite.page.locator('.mw-mail-row', { hasText: subject });
  await expect.poll(async () => {
    await suite.page.reload();
    return row.count();
  }, { timeout: 15_000 }).toBe(1);
  await row.click();
  const link = suite.page.frameLocator('iframe.mw-mail-frame').locator('a', { hasText: 'the version' });
  await link.waitFor();
  const [popup] = await Promise.all([suite.page.context().waitForEvent('page'), link.click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe(target);
  await popup.close();
  expect(suite.page.url()).toContain('#/pages/read-mail/index');
});
