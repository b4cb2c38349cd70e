import type { Contact, ContactInput, ContactList, ImportResult, SenderRules } from '@mailwing/shared';
import { Code, ContactMessages, isEmail } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { parseCsv, writeCsv } from './csv.js';
import * as repo from './contact.repository.js';
import { nameIndex } from './name-index.js';
import type { SenderRuleCache } from './sender-rule-cache.js';
import { parseVcards, writeVcards, type CardFields } from './vcard.js';

const MAX_IMPORT_ROWS = 10_000;

const toRow = (v: Omit<CardFields, 'groups'>, important: boolean): repo.ContactRow => ({
  name: v.name, email: v.email, phone: v.phone, company: v.company, job_title: v.jobTitle, job_number: v.jobNumber, important, ...nameRowIndex(v.name),
});
const nameRowIndex = (name: string) => {
  const { initial, sortKey } = nameIndex(name);
  return { initial, sort_key: sortKey };
};

/** Personal contacts, groups and sender rules of one mailbox. */
export class ContactService {
  constructor(private readonly db: Db, private readonly senderRules?: SenderRuleCache) {}

  async list(userId: number, q: string, group?: string): Promise<ContactList> {
    if (group && (await repo.ownedGroupIds(this.db, userId, [Number(group)])).length === 0) throw notFound('Group');
    const [rows, groups] = await Promise.all([repo.listContacts(this.db, userId, q, group ? Number(group) : undefined), repo.listGroups(this.db, userId)]);
    return {
      list: rows.map((r): Contact => ({
        id: String(r.id), name: r.name, email: r.email, phone: r.phone, company: r.company, jobTitle: r.job_title, jobNumber: r.job_number,
        groupIds: r.group_ids.map(String), important: r.important, initial: r.initial,
      })),
      groups: groups.map((g) => ({ id: String(g.id), name: g.name, count: g.count })),
    };
  }

  async save(userId: number, input: ContactInput): Promise<{ id: string }> {
    return this.db.transaction().execute(async (trx) => {
      const groupIds = await repo.ownedGroupIds(trx, userId, input.groupIds.map(Number));
      if (groupIds.length !== new Set(input.groupIds).size) throw notFound('Group');
      const sameEmail = await repo.findByEmail(trx, userId, input.email);
      const row = toRow(input, input.important);
      let id: number;
      if (input.id) {
        const existing = await repo.findContact(trx, userId, Number(input.id));
        if (!existing) throw notFound('Contact');
        if (sameEmail && sameEmail.id !== existing.id) throw invalid('email', 'Another contact already has this address', 'contact.duplicate');
        await repo.updateContact(trx, userId, existing.id, row);
        id = existing.id;
      } else {
        if (sameEmail) throw invalid('email', 'A contact with this address already exists', 'contact.duplicate');
        id = await repo.insertContact(trx, userId, row);
      }
      await repo.setMemberships(trx, id, groupIds);
      return { id: String(id) };
    });
  }

  async remove(userId: number, ids: string[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const wanted = [...new Set(ids.map(Number))];
      if ((await repo.ownedContactIds(trx, userId, wanted)).length !== wanted.length) throw notFound('Contact');
      return repo.deleteContacts(trx, userId, wanted);
    });
  }

  async setImportant(userId: number, id: string, important: boolean): Promise<void> {
    if ((await repo.setImportant(this.db, userId, Number(id), important)) === 0) throw notFound('Contact');
  }

  async saveGroup(userId: number, id: string | undefined, name: string): Promise<{ id: string }> {
    const same = await repo.groupByName(this.db, userId, name);
    if (same && String(same.id) !== id) throw invalid('name', 'A group with this name already exists', 'contact_group.duplicate');
    if (id) {
      if ((await repo.renameGroup(this.db, userId, Number(id), name)) === 0) throw notFound('Group');
      return { id };
    }
    return { id: String(await repo.insertGroup(this.db, userId, name)) };
  }

  async deleteGroup(userId: number, id: string): Promise<void> {
    if ((await repo.deleteGroup(this.db, userId, Number(id))) === 0) throw notFound('Group');
  }

  async groupMembers(userId: number, id: string, add: string[], remove: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [group] = await repo.ownedGroupIds(trx, userId, [Number(id)]);
      if (group === undefined) throw notFound('Group');
      const ids = [...new Set([...add, ...remove].map(Number))];
      if ((await repo.ownedContactIds(trx, userId, ids)).length !== ids.length) throw notFound('Contact');
      await repo.addMembers(trx, group, add.map(Number));
      await repo.removeMembers(trx, group, remove.map(Number));
    });
  }

  /**
   * Imports vCard or CSV. Each row is checked like the form (name and e-mail required,
   * e-mail valid); a bad row is reported with its line and skipped, the rest import.
   * A row whose address is already a contact updates it.
   */
  async import(userId: number, fileName: string, content: string): Promise<ImportResult> {
    const isCsv = /\.csv$/i.test(fileName) || (!/BEGIN:VCARD/i.test(content) && content.includes(','));
    const rows = (isCsv ? parseCsv(content) : parseVcards(content)).slice(0, MAX_IMPORT_ROWS);
    const errors: ImportResult['errors'] = [];
    let imported = 0;
    let updated = 0;
    await this.db.transaction().execute(async (trx) => {
      const groupIdByName = new Map<string, number>();
      for (const row of rows) {
        const f = row.fields;
        const problem = row.error ?? (!f ? 'Unreadable row' : !f.name ? ContactMessages.nameRequired : !f.email ? ContactMessages.emailRequired : !isEmail(f.email) ? `${f.email} ${ContactMessages.emailInvalid}` : null);
        if (problem || !f) {
          errors.push({ line: row.line, message: problem ?? 'Unreadable row' });
          continue;
        }
        const existing = await repo.findByEmail(trx, userId, f.email);
        let id: number;
        if (existing) {
          await repo.updateContact(trx, userId, existing.id, toRow(f, false));
          id = existing.id;
          updated += 1;
        } else {
          id = await repo.insertContact(trx, userId, toRow(f, false));
          imported += 1;
        }
        for (const g of f.groups.slice(0, 20)) {
          const key = g.toLowerCase();
          let gid = groupIdByName.get(key) ?? (await repo.groupByName(trx, userId, g))?.id;
          gid ??= await repo.insertGroup(trx, userId, g.slice(0, 50));
          groupIdByName.set(key, gid);
          await repo.addMembers(trx, gid, [id]);
        }
      }
    });
    // Nothing taken is not a success (issue 15: a garbage file said "0 imported"): the
    // transaction above wrote nothing, and the refusal says why by its code.
    if (imported + updated === 0) {
      if (rows.length === 0) throw invalid('file', 'No contacts found: the file is empty or is not a vCard or CSV file', 'contact.import_empty');
      const first = errors[0];
      throw new AppError(Code.Invalid, { file: `No contact could be imported${first ? ` (line ${first.line}: ${first.message})` : ''}` }, {
        reason: 'contact.import_none_valid', reasons: { file: 'contact.import_none_valid' }, errors,
      });
    }
    return { imported, updated, errors };
  }

  async export(userId: number, format: 'vcf' | 'csv'): Promise<string> {
    const [rows, memberships] = await Promise.all([repo.listContacts(this.db, userId, ''), repo.groupNamesOf(this.db, userId)]);
    const groups = new Map<number, string[]>();
    for (const m of memberships) groups.set(m.contact_id, [...(groups.get(m.contact_id) ?? []), m.name]);
    const cards: CardFields[] = rows.map((r) => ({
      name: r.name, email: r.email, phone: r.phone, company: r.company, jobTitle: r.job_title, jobNumber: r.job_number, groups: groups.get(r.id) ?? [],
    }));
    return format === 'csv' ? writeCsv(cards) : writeVcards(cards);
  }

  async rules(userId: number): Promise<SenderRules> {
    const rows = await repo.listRules(this.db, userId);
    return { block: rows.filter((r) => r.kind === 'block').map((r) => r.pattern), allow: rows.filter((r) => r.kind === 'allow').map((r) => r.pattern) };
  }

  async addRule(userId: number, kind: 'block' | 'allow', pattern: string): Promise<SenderRules> {
    await repo.addRule(this.db, userId, kind, pattern);
    this.senderRules?.changed(userId);
    return this.rules(userId);
  }

  async deleteRule(userId: number, kind: 'block' | 'allow', pattern: string): Promise<SenderRules> {
    await repo.deleteRule(this.db, userId, kind, pattern);
    this.senderRules?.changed(userId);
    return this.rules(userId);
  }
}
