import { generateKeyPairSync } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { invalid } from '../../errors.js';
import * as accounts from '../account/account.repository.js';
import { hashPassword } from '../account/password.js';
import { createSystemFolders } from '../mailbox/mailbox.repository.js';

export interface NewUser { email: string; password: string; name: string; role?: 'user' | 'admin'; jobTitle?: string; departmentId?: number | null }

/** A 2048-bit RSA DKIM key; the public half is what admins publish as `<selector>._domainkey` TXT. */
export function generateDkimKey(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'der' },
  });
  return { privateKey, publicKey: publicKey.toString('base64') };
}

export function dkimTxtRecord(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

export interface NewCompany { name: string; domain: string; isDemo?: boolean; customerId?: number | null }
export interface CreatedCompany { companyId: number; domainId: number; rootDepartmentId: number; dkimTxt: string }

/** The domain in its stored form, refused when malformed or already hosted here (the unique index is the last word). */
export async function checkNewDomain(db: Db, name: string): Promise<string> {
  const domain = name.trim().toLowerCase();
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain)) throw invalid('domain', 'is not a valid domain name', 'domain.invalid');
  if (await accounts.isHostedDomain(db, domain)) throw invalid('domain', 'is already hosted here', 'domain.taken');
  return domain;
}

/**
 * Inside the caller's transaction: the company, its domain with the given DKIM key, and its
 * root department. The west storefront's provisioning runs this in the transaction that also
 * records the job as done, so a crash leaves either all of it or none.
 */
export async function insertCompanyRows(trx: Db, v: NewCompany, key: { privateKey: string; publicKey: string }): Promise<CreatedCompany> {
  const companyId = await accounts.insertCompany(trx, { name: v.name, isDemo: v.isDemo ?? false, customerId: v.customerId });
  const domainId = await accounts.insertDomain(trx, { companyId, name: v.domain, selector: 'mw1', privateKey: key.privateKey, publicKey: key.publicKey });
  const rootDepartmentId = await accounts.insertDepartment(trx, { companyId, parentId: null, name: v.name });
  return { companyId, domainId, rootDepartmentId, dkimTxt: dkimTxtRecord(key.publicKey) };
}

/** Inside the caller's transaction: a mailbox with its system folders. */
export async function insertUserRows(trx: Db, company: { companyId: number; domainId: number }, u: Omit<NewUser, 'password'>, passwordHash: string): Promise<number> {
  const userId = await accounts.insertUser(trx, {
    companyId: company.companyId, domainId: company.domainId, departmentId: u.departmentId ?? null, email: u.email,
    passwordHash, name: u.name, role: u.role ?? 'user', jobTitle: u.jobTitle,
  });
  await createSystemFolders(trx, userId);
  return userId;
}

/** Creates companies, their domain, root department and mailboxes (the CLI, demo seed, and the west storefront's provisioning). */
export class CompanyService {
  constructor(private readonly db: Db) {}

  async createCompany(v: NewCompany): Promise<CreatedCompany> {
    const domain = await checkNewDomain(this.db, v.domain);
    const key = generateDkimKey();
    return this.db.transaction().execute((trx) => insertCompanyRows(trx, { ...v, domain }, key));
  }

  async createUser(company: { companyId: number; domainId: number }, u: NewUser, passwordHash?: string): Promise<number> {
    const hash = passwordHash ?? (await hashPassword(u.password));
    return this.db.transaction().execute((trx) => insertUserRows(trx, company, u, hash));
  }
}
