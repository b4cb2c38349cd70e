import { afterAll, beforeAll, expect, it } from 'vitest';
import { HostedDomains } from '../src/features/account/hosted-domains.js';
import { startTestServer, type TestServer } from './harness.js';

// The SMTP path's hosted-domain answers are kept 10 s per process (issue 13); a domain
// added meanwhile is recognised once that has passed, never later.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => s?.stop());

it('answers from the database, keeps the answer 10 s, then asks again', async () => {
  let t = 5_000_000;
  const domains = new HostedDomains(s.rt.services.db, () => t);
  expect(await domains.has('DEMO.test')).toBe(true);
  expect(await domains.has('later.test')).toBe(false);
  await s.rt.services.companies.createCompany({ name: 'Later Co', domain: 'later.test' });
  expect(await domains.has('later.test')).toBe(false);
  t += 10_001;
  expect(await domains.has('later.test')).toBe(true);
});
