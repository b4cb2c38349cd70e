import type { CompanyListEntry, CompanyListImported, CompanyListTest } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import * as repo from './company-list.repository.js';
import { CompiledList, normalisePattern, type ListEntry } from './list-match.js';

/** Each process reloads every company's list at most this long after the last load: changes apply within 60 s everywhere. */
export const LIST_TTL_MS = 30_000;
const IMPORT_MAX_LINES = 10_000;

interface Snapshot { lists: Map<number, CompiledList>; companyOf: Map<string, number>; at: number }

const unix = (d: Date) => Math.floor(new Date(d).getTime() / 1000);
const toEntry = (e: ListEntry): CompanyListEntry => ({ id: String(e.id), kind: e.kind, pattern: e.pattern, note: e.note, createdAt: unix(e.created_at) });

/**
 * Company block and allow lists (issue 17, scope 6). The SMTP path asks `judge` for every
 * recipient: a lookup in an in-memory snapshot of all companies' lists, reloaded (one query
 * for entries, one for the domains of companies that have any) when older than LIST_TTL_MS.
 * A change made on this process drops its snapshot at once; other processes follow within
 * LIST_TTL_MS. Precedence with DMARC and personal lists: docs/company-lists.md.
 */
export class CompanyListService {
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;

  constructor(private readonly d: { db: Db; now?: () => number; log?: Logger }) {}

  private now(): number {
    return (this.d.now ?? Date.now)();
  }

  /** The entry deciding mail from these addresses / this IP to a recipient on `domain`, or null. */
  async judge(rcptDomain: string, sender: { addresses: string[]; ip: string | null }): Promise<ListEntry | null> {
    const snap = await this.current();
    if (snap.lists.size === 0) return null;
    const companyId = snap.companyOf.get(rcptDomain.toLowerCase());
    const list = companyId === undefined ? undefined : snap.lists.get(companyId);
    return list ? list.match(sender.addresses.filter(Boolean), sender.ip) : null;
  }

  private async current(): Promise<Snapshot> {
    const snap = this.snapshot;
    if (snap && this.now() - snap.at < LIST_TTL_MS) return snap;
    this.loading ??= this.load().finally(() => { this.loading = null; });
    try {
      return await this.loading;
    } catch (err) {
      // A failed reload keeps the last lists rather than letting everything through.
      if (snap) {
        this.d.log?.warn({ err }, 'company lists not reloaded; using the previous ones');
        return snap;
      }
      throw err;
    }
  }

  private async load(): Promise<Snapshot> {
    const [entries, domains] = await Promise.all([repo.allEntries(this.d.db), repo.domainsOfListed(this.d.db)]);
    const by = new Map<number, ListEntry[]>();
    for (const e of entries) {
      const list = by.get(e.company_id) ?? [];
      list.push(e);
      by.set(e.company_id, list);
    }
    const snap: Snapshot = {
      lists: new Map([...by].map(([c, list]) => [c, new CompiledList(list)])),
      companyOf: new Map(domains.map((d) => [d.name.toLowerCase(), d.company_id])),
      at: this.now(),
    };
    this.snapshot = snap;
    return snap;
  }

  private changed(): void {
    this.snapshot = null;
  }

  // ---- admin ----

  async list(companyId: number): Promise<{ list: CompanyListEntry[] }> {
    return { list: (await repo.entriesOf(this.d.db, companyId)).map(toEntry) };
  }

  async add(companyId: number, v: { kind: 'block' | 'allow'; pattern: string; note: string }): Promise<void> {
    const p = normalisePattern(v.pattern);
    if (!p) throw invalid('pattern', 'Use an address, *@domain, an IP address or a CIDR range', 'lists.pattern_invalid');
    await repo.addEntries(this.d.db, companyId, [{ kind: v.kind, pattern: p.pattern, note: v.note }]);
    this.changed();
  }

  async remove(companyId: number, id: number): Promise<void> {
    if (!(await repo.deleteEntry(this.d.db, companyId, id))) throw notFound('List entry');
    this.changed();
  }

  /**
   * CSV: `kind,pattern,note` per line (kind is block or allow), or a bare pattern, which
   * blocks. A first line starting with "kind" is a header. Good lines are added even when
   * others fail; each failure names its line.
   */
  async importCsv(companyId: number, csv: string): Promise<CompanyListImported> {
    const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
    if (lines.length > IMPORT_MAX_LINES) throw invalid('csv', `At most ${IMPORT_MAX_LINES} lines at once`, 'lists.import_too_long');
    const rows: { kind: 'block' | 'allow'; pattern: string; note: string }[] = [];
    const errors: CompanyListImported['errors'] = [];
    lines.forEach((line, i) => {
      const cells = line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
      if (cells.every((c) => c === '')) return;
      if (i === 0 && cells[0]?.toLowerCase() === 'kind') return;
      const [rawKind = '', pattern, ...note] = cells.length === 1 ? ['block', cells[0]!] : cells;
      const kind = ({ 黑名单: 'block', 白名单: 'allow' } as Record<string, string>)[rawKind] ?? rawKind.toLowerCase();
      if (kind !== 'block' && kind !== 'allow') return errors.push({ line: i + 1, message: 'kind must be block or allow', reason: 'lists.kind_invalid' });
      const p = normalisePattern(pattern ?? '');
      if (!p) return errors.push({ line: i + 1, message: `not an address, *@domain, IP or CIDR: ${pattern ?? ''}`, reason: 'lists.pattern_invalid' });
      rows.push({ kind, pattern: p.pattern, note: note.join(',').slice(0, 200) });
    });
    // The same pattern twice in one file: the last line wins, as a re-import would.
    const unique = [...new Map(rows.map((r) => [`${r.kind} ${r.pattern}`, r])).values()];
    await repo.addEntries(this.d.db, companyId, unique);
    this.changed();
    return { added: unique.length, errors };
  }

  /** The "test an address" tool: what the SMTP path would decide, from the same lookup. */
  async test(companyId: number, address: string, ip: string): Promise<CompanyListTest> {
    if (!address && !ip) throw invalid('address', 'Give an address or an IP address', 'lists.test_empty');
    const entries = await repo.entriesOf(this.d.db, companyId);
    const hit = new CompiledList(entries).match(address ? [address.trim().toLowerCase()] : [], ip || null);
    return hit ? { result: hit.kind, entry: toEntry(hit) } : { result: 'none', entry: null };
  }
}
