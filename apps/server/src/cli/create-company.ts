import { parseArgs } from 'node:util';

// First-run setup for production (API.md): creates a company, its domain and its administrator.
// Usage: npm run setup:company -- --company "Acme" --domain acme.com --admin admin@acme.com --password '…'
const { values } = parseArgs({
  options: { company: { type: 'string' }, domain: { type: 'string' }, admin: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
});
const { company, domain, admin, password } = values;
if (!company || !domain || !admin || !password) {
  console.error('usage: npm run setup:company -- --company NAME --domain DOMAIN --admin ADDRESS --password PASSWORD [--name "Admin name"]');
  process.exit(2);
}
if (!admin.toLowerCase().endsWith(`@${domain.toLowerCase()}`)) {
  console.error(`the administrator address must be in ${domain}`);
  process.exit(2);
}
if (password.length < 8) {
  console.error('the password must be at least 8 characters');
  process.exit(2);
}
// Loaded only once the arguments are good: the runtime's module graph takes seconds to load,
// and a typo deserves its usage line at once.
const [{ loadConfig }, { AppError }, { openServices }] = await Promise.all([import('../config.js'), import('../errors.js'), import('../runtime.js')]);
const config = loadConfig();
const { services, close } = await openServices(config);
let status = 0;
try {
  const c = await services.companies.createCompany({ name: company, domain });
  await services.companies.createUser(c, { email: admin, password, name: values.name ?? 'Administrator', role: 'admin', departmentId: c.rootDepartmentId });
  console.log(`Created ${company} (${domain}) with administrator ${admin}.`);
  console.log(`Publish this DKIM record: mw1._domainkey.${domain} TXT "${c.dkimTxt}"`);
} catch (err) {
  if (err instanceof AppError && typeof err.detail === 'object' && !Array.isArray(err.detail)) {
    for (const [field, message] of Object.entries(err.detail)) console.error(`${field}: ${message}`);
  } else {
    console.error(err instanceof Error ? err.message : err);
  }
  status = 1;
} finally {
  await close();
}
// Explicit: the embedded database's runtime resets process.exitCode when it shuts down.
process.exit(status);
