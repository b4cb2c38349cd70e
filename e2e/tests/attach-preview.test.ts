import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot, sendMail, smallTargets } from '../helpers';

// Issue 14, scopes 5 and 6: a mail with an image, a PDF, a video, a text file and a
// Word file, sent over SMTP. On the read page: thumbnails and a paperclip; the image
// viewer (opaque, close, save, forward); the PDF drawn by pdf.js; text as text; the
// Word file's download-and-forward fallback; the video plays. Screenshots in en and zh.

const suite = phoneSuite('attach-preview');
const USER = 'bob@demo.test';
const stamp = Date.now();
const SUBJECT = `Attachments ${stamp}`;
let mailId = '';

afterAll(async () => {
  const token = await apiToken(USER);
  await api('/setting/modifylanguage', { token, query: { language: 'en' } }).catch(() => undefined);
  // Take the test's mail and the forward's draft away, so later files see the usual boxes.
  if (mailId) await api('/mailop/delete', { token, form: { ids: mailId } }).catch(() => undefined);
  const drafts = await api<{ list: { id: string; subject: string }[] }>('/mail/list', { token, query: { mid: '2', size: '50' } }).catch(() => ({ list: [] }));
  const ours = drafts.list.filter((d) => d.subject.includes(String(stamp))).map((d) => d.id);
  if (ours.length > 0) await api('/mailop/delete', { token, form: { ids: ours.join(',') } }).catch(() => undefined);
});

/** A one-page PDF with a line of text, its cross-reference table computed here. */
function tinyPdf(text: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 30 120 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 30 120 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A PNG drawn on a canvas and a two-second WebM recorded from one (MediaRecorder), made in Chromium. */
async function makeMedia(page: Page): Promise<{ png: Buffer; webm: Buffer }> {
  const out = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 240;
    const ctx = canvas.getContext('2d')!;
    const draw = (t: number) => {
      const g = ctx.createLinearGradient(0, 0, 320, 240);
      g.addColorStop(0, '#2b6fd6');
      g.addColorStop(1, '#13a8a8');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 320, 240);
      ctx.fillStyle = '#ffd24d';
      ctx.beginPath();
      ctx.arc(60 + (t % 200), 120, 40, 0, Math.PI * 2);
      ctx.fill();
    };
    draw(0);
    const png = canvas.toDataURL('image/png').split(',')[1]!;
    const stream = canvas.captureStream(25);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 200_000 });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const done = new Promise((resolve) => { recorder.onstop = resolve; });
    recorder.start(200);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const tick = () => {
        draw(performance.now() - started);
        if (performance.now() - started > 2000) resolve();
        else requestAnimationFrame(tick);
      };
      tick();
    });
    recorder.stop();
    await done;
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return { png, webm: btoa(bin) };
  });
  return { png: Buffer.from(out.png, 'base64'), webm: Buffer.from(out.webm, 'base64') };
}

async function useLanguage(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await api('/setting/modifylanguage', { token: await apiToken(USER), query: { language: lang } });
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
}

/** Waits out the loading toast, so a screenshot shows the page rather than "Loading…". */
async function shot(page: Page, name: string): Promise<void> {
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await screenshot(page, name);
}

const readUrl = () => `${BASE_URL}/#/pages/read-mail/index?mid=${mailId}`;
const row = (page: Page, kind: string) => page.locator(`.mw-attachments .adm-list-item[data-preview="${kind}"]`);

async function openRead(page: Page): Promise<void> {
  await page.goto(readUrl());
  await page.locator('.mw-attachments [data-attach]').first().waitFor();
}

it('sends the mail: every kind of attachment arrives', async () => {
  const page = suite.page;
  await login(page, USER);
  const { png, webm } = await makeMedia(page);
  expect(webm.length).toBeGreaterThan(1000);
  await sendMail({
    from: 'Wang Fang <fang@partner.test>', to: USER, subject: SUBJECT, text: 'Photos, the report and the clip.',
    attachments: [
      { filename: 'photo.png', content: png, contentType: 'image/png' },
      { filename: 'report.pdf', content: tinyPdf(`Quarterly report ${stamp}`), contentType: 'application/pdf' },
      { filename: 'clip.webm', content: webm, contentType: 'video/webm' },
      // Text that would be markup if it were ever interpreted.
      { filename: 'notes.txt', content: `Meeting notes\n<script>document.title='PWNED'</script>\n<b>not bold</b>\n`, contentType: 'text/plain' },
      { filename: 'letter.docx', content: Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]), contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    ],
  });
  const token = await apiToken(USER);
  await expect.poll(async () => {
    const list = await api<{ list: { id: string; subject: string }[] }>('/mail/list', { token, query: { mid: '0', size: '30' } });
    mailId = list.list.find((m) => m.subject === SUBJECT)?.id ?? '';
    return mailId;
  }, { timeout: 15_000 }).not.toBe('');
});

it('the list shows the sender avatar and a paperclip; the read page thumbnails the image', async () => {
  const page = suite.page;
  await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
  const mine = page.locator(`.mw-mail-row[data-id="${mailId}"]`);
  await mine.waitFor();
  // An initial on a colour of its own, and the paperclip (not antd's chain link).
  const avatar = mine.locator('.mw-row-avatar');
  expect(await avatar.textContent()).toBe('W');
  expect(await avatar.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  expect(await mine.locator('.mw-mail-marks svg[role="img"]').count()).toBe(1);
  await shot(page, 'attach-list-en');

  await openRead(page);
  const thumb = row(page, 'image').locator('img[data-thumb]');
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBe(320);
  // Every other file keeps its type tile.
  expect(await page.locator('.mw-attachments img[data-thumb]').count()).toBe(1);
  expect(await smallTargets(page, '.mw-attachments .mw-download')).toEqual([]);
  await shot(page, 'attach-read-en');
});

it('the read page links all attachments (two or more) to the attachments page', async () => {
  const page = suite.page;
  await openRead(page);
  const all = page.locator('.mw-attachments .mw-attach-all');
  expect(await all.textContent()).toBe('All attachments (5)');
  expect(await smallTargets(page, '.mw-attachments .mw-attach-all')).toEqual([]);
  await all.click();
  await page.waitForURL(/pages\/attach\/index\?mid=/);
  await expect.poll(() => page.locator('.mw-attachments [data-attach]').count(), { timeout: 10_000 }).toBe(5);
  // The attachments page does not link to itself.
  expect(await page.locator('.mw-attach-all').count()).toBe(0);
  await shot(page, 'attach-all-en');
  await page.goBack();
  await page.locator('.mw-attachments .mw-attach-all').waitFor();
});

it('the image viewer is opaque, closes, and forwards the one image', async () => {
  const page = suite.page;
  await openRead(page);
  await row(page, 'image').click();
  const bar = page.locator('[data-role="image-viewer-bar"]');
  await bar.waitFor();
  const mask = page.locator('.mw-viewer-mask');
  expect(await mask.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');
  expect(await mask.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  expect(await smallTargets(page, '.mw-viewer-bar button')).toEqual([]);
  await page.waitForTimeout(400);
  await shot(page, 'attach-viewer-en');
  // Save downloads the original file.
  const download = page.waitForEvent('download', { timeout: 10_000 });
  await bar.locator('button[aria-label="Save"]').click();
  expect((await download).suggestedFilename()).toBe('photo.png');
  // Close.
  await bar.locator('button[aria-label="Close"]').click();
  await expect.poll(() => bar.count(), { timeout: 10_000 }).toBe(0);
  await expect.poll(() => page.locator('.mw-viewer-mask').isVisible().catch(() => false), { timeout: 10_000 }).toBe(false);

  // Forward: compose opens forwarding this mail with only the image, thumbnailed.
  await row(page, 'image').click();
  await bar.locator('button[aria-label="Forward"]').click();
  await page.waitForURL(/#\/pages\/write\/index\?forward=/);
  const files = page.locator('.mw-compose-attachments [data-attach-row]');
  await expect.poll(() => files.count(), { timeout: 15_000 }).toBe(1);
  await expect.poll(() => files.first().locator('img[data-thumb]').evaluate((img: HTMLImageElement) => img.naturalWidth).catch(() => 0), { timeout: 15_000 }).toBe(320);
  expect(await files.first().textContent()).toContain('photo.png');
  await shot(page, 'attach-forward-en');

});

it('the PDF is drawn by pdf.js on its own page, and the page closes back to the mail', async () => {
  const page = suite.page;
  await openRead(page);
  const scripts = new Set<string>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.add(r.url());
  });
  await row(page, 'pdf').click();
  await page.waitForURL(/#\/pages\/attach\/preview\?/);
  const canvas = page.locator('[data-role="pdf-view"] canvas[data-page="1"]');
  await canvas.waitFor({ timeout: 20_000 });
  // Something was drawn: the text makes dark pixels on the white page.
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let dark = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i]! < 100 && d[i + 3]! > 0) dark++;
    return dark;
  }), { timeout: 10_000 }).toBeGreaterThan(50);
  // pdf.js came as a chunk of its own now, with its worker from our origin; no frame shows the file.
  expect([...scripts].some((u) => /\/assets\/pdf-/.test(u))).toBe(true);
  expect(await page.locator('iframe, embed, object').count()).toBe(0);
  expect(await smallTargets(page, '.mw-preview-bar button, .mw-pdf-zoom button')).toEqual([]);
  await shot(page, 'attach-pdf-en');
  await page.goBack();
  await page.waitForURL(/#\/pages\/read-mail\/index/);
  await page.locator('.mw-attachments').waitFor();
});

it('text is shown as text, and a Word file gets download and forward', async () => {
  const page = suite.page;
  await openRead(page);
  await row(page, 'text').click();
  const pre = page.locator('[data-role="preview-text"]');
  await pre.waitFor();
  expect(await pre.textContent()).toContain("<script>document.title='PWNED'</script>");
  expect(await pre.locator('b, script').count()).toBe(0);
  expect(await page.title()).not.toContain('PWNED');
  await shot(page, 'attach-text-en');

  await page.goBack();
  await page.locator('.mw-attachments').waitFor();
  await row(page, 'none').click();
  const fallback = page.locator('[data-role="preview-fallback"]');
  await fallback.waitFor();
  expect(await fallback.textContent()).toContain('letter.docx');
  const download = page.waitForEvent('download', { timeout: 10_000 });
  await fallback.locator('button', { hasText: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('letter.docx');
  expect(await smallTargets(page, '.mw-preview-fallback .adm-button')).toEqual([]);
  await shot(page, 'attach-docx-en');
});

it('the video plays in the video module page', async () => {
  const page = suite.page;
  await openRead(page);
  await row(page, 'video').click();
  await page.waitForURL(/#\/pages\/modules\/video\/index\?/);
  const video = page.locator('video[data-role="video"]');
  await video.waitFor();
  expect(await video.evaluate((v: HTMLVideoElement) => v.playsInline && v.controls)).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  await shot(page, 'attach-video-en');
});

it('screenshots in zh: list, read page, viewer, PDF, text, Word fallback and video', async () => {
  const page = suite.page;
  await useLanguage(page, 'zh');
  try {
    await page.goto(`${BASE_URL}/#/pages/list-tab/index`);
    await page.reload();
    await page.locator(`.mw-mail-row[data-id="${mailId}"]`).waitFor();
    await shot(page, 'attach-list-zh');
    await openRead(page);
    await shot(page, 'attach-read-zh');
    expect(await page.locator('.mw-attachments .mw-attach-all').textContent()).toBe('全部附件（5）');
    await page.locator('.mw-attachments .mw-attach-all').click();
    await expect.poll(() => page.locator('.mw-attachments [data-attach]').count(), { timeout: 10_000 }).toBe(5);
    await shot(page, 'attach-all-zh');
    await page.goBack();
    await page.locator('.mw-attachments .mw-attach-all').waitFor();
    await row(page, 'image').click();
    const bar = page.locator('[data-role="image-viewer-bar"]');
    await bar.waitFor();
    expect(await bar.textContent()).toContain('保存');
    await page.waitForTimeout(400);
    await shot(page, 'attach-viewer-zh');
    await bar.locator('button[aria-label="关闭"]').click();
    await expect.poll(() => bar.count(), { timeout: 10_000 }).toBe(0);

    await row(page, 'pdf').click();
    await page.locator('[data-role="pdf-view"] canvas[data-page="1"]').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(300);
    await shot(page, 'attach-pdf-zh');
    await page.goBack();
    await page.locator('.mw-attachments').waitFor();
    await row(page, 'text').click();
    await page.locator('[data-role="preview-text"]').waitFor();
    await shot(page, 'attach-text-zh');
    await page.goBack();
    await page.locator('.mw-attachments').waitFor();
    await row(page, 'none').click();
    const fallback = page.locator('[data-role="preview-fallback"]');
    await fallback.waitFor();
    expect(await fallback.textContent()).toContain('转发');
    await shot(page, 'attach-docx-zh');
    await page.goBack();
    await page.locator('.mw-attachments').waitFor();
    await row(page, 'video').click();
    await page.locator('video[data-role="video"]').waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'attach-video-zh');
    // Compose forwarding the image.
    await openRead(page);
    await row(page, 'image').click();
    await bar.locator('button[aria-label="转发"]').click();
    await page.waitForURL(/#\/pages\/write\/index\?forward=/);
    await page.locator('.mw-compose-attachments img[data-thumb]').waitFor();
    await shot(page, 'attach-forward-zh');
  } finally {
    await useLanguage(page, 'en');
  }
});
