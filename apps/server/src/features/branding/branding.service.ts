import type { Branding } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import * as repo from './branding.repository.js';

const NONE: Branding = { name: '', color: '', logo: '' };

/** The candidates for a host name: itself, then each parent (mail.example.com → example.com), never a bare TLD. */
export function domainCandidates(host: string): string[] {
  const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.+$/, '');
  if (!/^[a-z0-9.-]{1,253}$/.test(name)) return [];
  const labels = name.split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/**
 * The per-domain login page (issue 17, scope 7). The public answer is the branding the admin
 * chose and nothing else: an unknown domain and a company without branding answer alike, so
 * it cannot be used to learn which domains are hosted here or what a company is called.
 */
export class BrandingService {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  async get(companyId: number): Promise<Branding> {
    const b = await repo.ofCompany(this.db, companyId);
    return b ? { name: b.display_name, color: b.color, logo: b.logo } : NONE;
  }

  async save(companyId: number, v: Branding): Promise<Branding> {
    await repo.save(this.db, companyId, { ...v, now: this.now() });
    return this.get(companyId);
  }

  async forHost(host: string): Promise<Branding> {
    const companyId = await repo.companyOfDomain(this.db, domainCandidates(host));
    return companyId === null ? NONE : this.get(companyId);
  }
}
