import { describe, expect, it } from 'vitest';
import { BASE_URL } from '../env';
import { api, apiToken, login, phoneSuite, screenshot } from '../helpers';

interface Occ { id: string; title: string; start: number; localStart: string; reminder: number; recurring: boolean }

// Issue 18: a weekly event with a reminder, created on the phone, seen in the 3-month view.
describe('calendar', () => {
  const suite = phoneSuite('calendar');
  const title = `Weekly review ${Date.now().toString().slice(-6)}`;
  const pad = (n: number) => String(n).padStart(2, '0');
  const key = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

  it('creates a weekly event with a reminder and shows it in the 3-month view', async () => {
    const { page } = suite;
    await login(page, 'bob@demo.test');
    await page.goto(`${BASE_URL}/#/pages/mbox/mbox-list`);
    await page.locator('[data-row="app-calendar"]').click();
    await page.locator('.mw-cal-grid').first().waitFor();
    await screenshot(page, 'calendar-month-en-empty');

    await page.locator('[data-action="new-event"]').click();
    await page.locator('[data-field="title"] input').fill(title);
    await page.locator('.adm-selector-item', { hasText: 'Weekly' }).click();
    // The browser runs in the machine's zone, as the page does: today's weekday.
    const day = await page.evaluate(() => ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][new Date().getDay()]);
    const label = { MO: 'Mon', TU: 'Tue', WE: 'Wed', TH: 'Thu', FR: 'Fri', SA: 'Sat', SU: 'Sun' }[day!]!;
    // Spec §5: saving a weekly repeat with no weekday is refused with its message.
    await page.locator('[data-action="save"]').click();
    await page.locator('.adm-toast-main', { hasText: 'Pick at least one weekday for a weekly repeat' }).waitFor();
    await page.locator('.adm-selector-item', { hasText: new RegExp(`^${label}$`) }).click();
    await expect.poll(() => page.locator('[data-field="reminder"]').textContent()).toBe('15 minutes before');
    await screenshot(page, 'calendar-edit-en');
    await page.locator('[data-action="save"]').click();
    await page.locator('.mw-cal-grid').first().waitFor();

    await page.locator('.adm-segmented-item', { hasText: '3 months' }).click();
    await expect.poll(() => page.locator('.mw-cal-month.is-compact').count()).toBe(3);
    const now = new Date();
    const days = [0, 7, 14, 21].map((n) => key(new Date(now.getFullYear(), now.getMonth(), now.getDate() + n)));
    for (const d of days) await expect.poll(() => page.locator(`.mw-cal-month [data-day="${d}"]:not(.is-other) .mw-cal-dot`).count(), { message: d }).toBeGreaterThan(0);
    await screenshot(page, 'calendar-3months-en');
    await page.locator(`.mw-cal-month [data-day="${days[1]}"]:not(.is-other)`).first().click();
    await page.locator('.mw-cal-daylist [data-event]', { hasText: title }).waitFor();

    // What the server holds: one weekly series with a 15-minute reminder.
    const token = await apiToken('bob@demo.test');
    const from = Math.floor(now.getTime() / 1000) - 86_400;
    const list = (await api<{ list: Occ[] }>('/calendar/range', { token, query: { from: String(from), to: String(from + 30 * 86_400) } })).list.filter((o) => o.title === title);
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect(list.every((o) => o.recurring && o.reminder === 15)).toBe(true);

    await page.locator('.adm-segmented-item', { hasText: 'Agenda' }).click();
    await page.locator('[data-event]', { hasText: title }).first().waitFor();
    await screenshot(page, 'calendar-agenda-en');

    // The private subscription link serves the event to a calendar app, with no session.
    await page.locator('[data-action="calendar-more"]').click();
    await page.locator('.adm-action-sheet-button-item', { hasText: /^Subscription link$/ }).click();
    const url = (await page.locator('[data-feed-url]').textContent())!;
    await screenshot(page, 'calendar-subscribe-en');
    expect(url).toMatch(/\/h5\/calendar\/feed\.ics\?key=/);
    expect(url).not.toContain('t=');
    const ics = await (await fetch(url)).text();
    expect(ics).toContain(`SUMMARY:${title}`);
    expect(ics).toContain('TRIGGER:-PT15M');
    await page.locator('.adm-dialog-button', { hasText: 'OK' }).click();
  });

  it('shows the same pages in Chinese, with lunar dates', async () => {
    const { page } = suite;
    await api('/setting/modifylanguage', { token: await apiToken('bob@demo.test'), query: { language: 'zh' } });
    await page.goto(`${BASE_URL}/#/pages/mbox/mbox-list`);
    await page.reload();
    await page.locator('[data-row="app-calendar"]', { hasText: '日程' }).click();
    await page.locator('.adm-segmented-item', { hasText: '月' }).first().waitFor();
    // A lunar day name (初一…三十, a month name, a festival or solar term) under every date.
    await expect.poll(() => page.locator('.mw-cal-lunar').first().textContent()).toMatch(/[\u4e00-\u9fff]/);
    await screenshot(page, 'calendar-month-zh');
    await page.locator('.adm-segmented-item', { hasText: '三个月' }).click();
    await expect.poll(() => page.locator('.mw-cal-month.is-compact').count()).toBe(3);
    await screenshot(page, 'calendar-3months-zh');
    await page.locator('[data-action="new-event"]').click();
    await page.locator('.adm-selector-item', { hasText: '每周' }).click();
    await screenshot(page, 'calendar-edit-zh');
    await page.locator('[data-field="title"] input').fill('测试');
    await page.locator('[data-action="save"]').click();
    await page.locator('.adm-toast-main', { hasText: '每周重复至少选择一天' }).waitFor();
  });

  it('shows the invitation card of a mail carrying an invite (zh and en); Accept files the event and the organiser gets the reply', async () => {
    const { page } = suite;
    const invTitle = `Design review ${Date.now().toString().slice(-6)}`;
    const [alice, bob] = [await apiToken('alice@demo.test'), await apiToken('bob@demo.test')];
    const ev = await api<{ id: string }>('/calendar/create', {
      token: alice, form: { title: invTitle, start: '2027-06-01T10:00', end: '2027-06-01T11:00', tz: 'Asia/Shanghai', attendees: 'bob@demo.test' },
    });
    // The REQUEST is queued with the event and sent by the invitation runner.
    const mailOf = async (token: string, text: string) =>
      (await api<{ list: { id: string; subject: string }[] }>('/mail/list', { token, query: { mid: '0', page: '1', size: '50' } })).list.find((m) => m.subject.includes(text));
    await expect.poll(() => mailOf(bob, invTitle), { timeout: 30_000 }).toBeDefined();
    const mail = (await mailOf(bob, invTitle))!;

    // Bob reads in Chinese (the test before switched him).
    await page.goto(`${BASE_URL}/#/pages/read-mail/index?mid=${mail.id}`);
    await page.locator('.mw-invite[data-invite="REQUEST"]').waitFor();
    await expect.poll(() => page.locator('.mw-invite-head').textContent()).toMatch(/[\u4e00-\u9fff]/);
    await page.locator('.mw-invite').scrollIntoViewIfNeeded();
    await screenshot(page, 'calendar-invite-zh');

    await api('/setting/modifylanguage', { token: bob, query: { language: 'en' } });
    await page.reload();
    await page.locator('.mw-invite [data-action="accept"]', { hasText: 'Accept' }).waitFor();
    await page.locator('.mw-invite').scrollIntoViewIfNeeded();
    await screenshot(page, 'calendar-invite-en');
    for (const a of ['accept', 'tentative', 'decline']) {
      const box = (await page.locator(`.mw-invite [data-action="${a}"]`).boundingBox())!;
      expect(box.height, a).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width, a).toBeLessThanOrEqual(390);
    }

    await page.locator('.mw-invite [data-action="accept"]').click();
    await page.locator('.mw-invite-status[data-answer="ACCEPTED"]').waitFor();
    await page.locator('.mw-invite-open').waitFor();
    await screenshot(page, 'calendar-invite-accepted-en');
    // The organiser: the REPLY lands in her Inbox and her event shows Bob's answer.
    await expect.poll(async () => (await api<{ attendees: { email: string; partstat: string }[] }>('/calendar/event', { token: alice, query: { id: ev.id } }))
      .attendees.find((a) => a.email === 'bob@demo.test')?.partstat, { timeout: 30_000 }).toBe('ACCEPTED');
    expect(await mailOf(alice, invTitle)).toBeDefined();
  });
});
