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

/** Creates companies, their domain, root department and mailboxes (the CLI, demo seed, and later the west storefront). */
export class CompanyService {
  constructor(private readonly db: Db) {}

  async createCompany(v: { name: string; domain: string; isDemo?: boolean; customerId?: number | null }) {
    const domain = v.domain.trim().toLowerCase();
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain)) throw invalid('domain', 'is not a valid domain name');
    if (await accounts.isHostedDomain(this.db, domain)) throw invalid('domain', 'is already hosted here');
    const key = generateDkimKey();
    return this.db.transaction().execute(async (trx) => {
      const companyId = await accounts.insertCompany(trx, { name: v.name, isDemo: v.isDemo ?? false, customerId: v.customerId });
      const domainId = await accounts.insertDomain(trx, { companyId, name: domain, selector: 'mw1', privateKey: key.privateKey, publicKey: key.publicKey });
      const rootDepartmentId = await accounts.insertDepartment(trx, { companyId, parentId: null, name: v.name });
      return { companyId, domainId, rootDepartmentId, dkimTxt: dkimTxtRecord(key.publicKey) };
    });
  }

  async createUser(company: { companyId: number; domainId: number }, u: NewUser, passwordHash?: string): Promise<number> {
    const hash = passwordHash ?? (await hashPassword(u.password));
    return this.db.transaction().execute(async (trx) => {
      const userId = await accounts.insertUser(trx, {
        companyId: company.companyId, domainId: company.domainId, departmentId: u.departmentId ?? null, email: u.email,
        passwordHash: hash, name: u.name, role: u.role ?? 'user', jobTitle: u.jobTitle,
      });
      await createSystemFolders(trx, userId);
      return userId;
    });
  }
}
