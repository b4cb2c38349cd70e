import { SystemFolder } from '@mailwing/shared';
import type { Logger } from 'pino';
import { countUsers } from '../features/account/account.repository.js';
import { hashPassword } from '../features/account/password.js';
import { insertDepartment } from '../features/account/account.repository.js';
import { composeMime } from '../features/message/compose-mime.js';
import type { Services } from '../services.js';
import { seedWestDemo } from '../features/west-shop/west-demo.js';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_DOMAIN = 'demo.test';

// A 16×16 PNG (a blue square), small enough to live in the source.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAGklEQVR4nGNQaPhPEmIY1TCqYVTDqIahqgEAKpFbYC7uvCQAAAAASUVORK5CYII=',
  'base64',
);

/** Seeds "Demo Co" (API.md demo mode) when the database has no users. Returns false if it did nothing. */
export async function seedDemo(s: Services, log?: Logger): Promise<boolean> {
  if ((await countUsers(s.db)) > 0) return false;
  const company = await s.companies.createCompany({ name: 'Demo Co', domain: DEMO_DOMAIN, isDemo: true });
  const sales = await insertDepartment(s.db, { companyId: company.companyId, parentId: company.rootDepartmentId, name: 'Sales' });
  const eng = await insertDepartment(s.db, { companyId: company.companyId, parentId: company.rootDepartmentId, name: 'Engineering' });
  const hash = await hashPassword(DEMO_PASSWORD);
  const admin = await s.companies.createUser(company, { email: `admin@${DEMO_DOMAIN}`, password: '', name: 'Admin', role: 'admin', departmentId: company.rootDepartmentId, jobTitle: 'Postmaster' }, hash);
  const alice = await s.companies.createUser(company, { email: `alice@${DEMO_DOMAIN}`, password: '', name: 'Alice Wang', departmentId: sales, jobTitle: 'Sales manager' }, hash);
  const bob = await s.companies.createUser(company, { email: `bob@${DEMO_DOMAIN}`, password: '', name: 'Bob Li', departmentId: eng, jobTitle: 'Engineer' }, hash);

  const inbox = Number(SystemFolder.Inbox);
  const day = 86_400_000;
  const at = (msAgo: number) => new Date(Date.now() - msAgo);
  const A = { name: 'Alice Wang', address: `alice@${DEMO_DOMAIN}` };
  const B = { name: 'Bob Li', address: `bob@${DEMO_DOMAIN}` };
  const ADMIN = { name: 'Admin', address: `admin@${DEMO_DOMAIN}` };

  const samples: { mail: Parameters<typeof composeMime>[0]; to: { userId: number; star?: boolean; seen?: boolean; folderMid?: number }[] }[] = [
    {
      mail: { from: ADMIN, to: [A, B], subject: 'Welcome to Mailwing', date: at(6 * day),
        html: '<h2>Welcome to Mailwing</h2><p>Your company mailbox is ready. Read, write and organise your mail from your phone.</p>' },
      to: [{ userId: alice, star: true, seen: true }, { userId: bob, star: true }],
    },
    {
      mail: { from: B, to: [A], subject: '第三季度报告', date: at(2 * day),
        text: '王经理：\n\n附件是第三季度的销售数据，请查收。季度报告的要点：收入增长 12%，新客户 36 家。\n\n李波',
        attachments: [{ filename: '第三季度数据.csv', content: '月份,收入\n7月,120\n8月,135\n9月,151\n', contentType: 'text/csv; charset=utf-8' }] },
      to: [{ userId: alice }],
    },
    {
      mail: { from: ADMIN, to: [A, B], subject: 'Urgent: mail server maintenance tonight', date: at(5 * 3_600_000), priority: 'high',
        text: 'The mail service restarts at 23:00 for ten minutes. Mail sent during that time is queued and delivered afterwards.' },
      to: [{ userId: alice }, { userId: bob }],
    },
    {
      mail: { from: B, to: [A], subject: 'Photos from the team day', date: at(40 * 60_000),
        html: '<p>Here is the logo we picked:</p><p><img src="cid:logo@demo" alt="logo" width="64" height="64"></p><p>And the banner from the venue site:</p><p><img src="https://venue.example.com/banner.png" alt="banner"></p>',
        attachments: [
          { filename: 'logo.png', content: PNG, cid: 'logo@demo', contentType: 'image/png' },
          { filename: 'team-photo.png', content: PNG, contentType: 'image/png' },
        ] },
      to: [{ userId: alice }],
    },
    {
      mail: { from: A, to: [B], subject: 'Re: Project kickoff agenda', date: at(3 * day), text: 'Thanks Bob, the agenda looks good to me.' },
      to: [{ userId: bob }, { userId: alice, seen: true, folderMid: Number(SystemFolder.Sent) }],
    },
  ];
  for (const sample of samples) {
    const raw = await composeMime(sample.mail);
    await s.ingest.deliver(raw, String((sample.mail.from as { address: string }).address), sample.to.map((t) => ({
      userId: t.userId, folderMid: t.folderMid ?? inbox, star: t.star, seen: t.seen,
      deliveryState: t.folderMid === Number(SystemFolder.Sent) ? 'sent' : null,
    })));
  }
  // Debug, not info: the start-up banner (main.ts) names these logins for a person to read.
  log?.debug({ users: [`admin@${DEMO_DOMAIN}`, `alice@${DEMO_DOMAIN}`, `bob@${DEMO_DOMAIN}`] }, 'seeded the demo company');
  void admin;
  await seedWestDemo(s.db, log);
  return true;
}
