import {
  TEMPLATE_CATEGORY_MAX_COUNT, TEMPLATE_MAX_BYTES, TEMPLATE_MAX_COUNT,
  type Template, type TemplateBook, type TemplateCategory, type TemplateSaved, type TemplateShelf,
} from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import { sanitizeRichHtml, utf8Bytes } from '../signature/rich-html.js';
import * as repo from './template.repository.js';
import type { Owner } from './template.repository.js';

export type { Owner };

type Row = { id: number; category_id: number | null; name: string; subject: string; html: string; updated_at: Date };
const toTemplate = (r: Row): Template => ({
  id: String(r.id), categoryId: r.category_id === null ? null : String(r.category_id), name: r.name, subject: r.subject, html: r.html,
  updatedAt: Math.floor(new Date(r.updated_at).getTime() / 1000),
});
const toCategory = (r: { id: number; name: string }): TemplateCategory => ({ id: String(r.id), name: r.name });

export interface TemplateInputs { name?: string; categoryId?: string; subject?: string; html?: string }

/**
 * Templates and their categories for one owner. Routes decide the owner: a mailbox
 * for personal ones; the caller's company, only for its admin, for company ones.
 */
export class TemplateService {
  private readonly db: Db;
  private readonly now: () => Date;
  constructor(deps: { db: Db; now?: () => Date }) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
  }

  /** What a user sees: their own templates, and their company's to read. */
  async book(userId: number, companyId: number): Promise<TemplateBook> {
    const [personal, company] = await Promise.all([this.shelf({ kind: 'user', id: userId }), this.shelf({ kind: 'company', id: companyId })]);
    return { personal, company };
  }

  async shelf(o: Owner): Promise<TemplateShelf> {
    const [categories, templates] = await Promise.all([repo.listCategories(this.db, o), repo.listTemplates(this.db, o)]);
    return { categories: categories.map(toCategory), templates: templates.map(toTemplate) };
  }

  async create(o: Owner, v: Required<Pick<TemplateInputs, 'name' | 'html'>> & TemplateInputs): Promise<TemplateSaved> {
    const { html, removedImages } = clean(v.html);
    const categoryId = await this.category(o, v.categoryId);
    return this.db.transaction().execute(async (trx) => {
      if ((await repo.lockAndCount(trx, o, 'templates')) >= TEMPLATE_MAX_COUNT) {
        throw invalid('name', `At most ${TEMPLATE_MAX_COUNT} templates`, 'template.limit');
      }
      const row = await repo.insertTemplate(trx, o, { category_id: categoryId ?? null, name: v.name, subject: v.subject ?? '', html }, this.now());
      return { ...toTemplate(row), removedImages };
    });
  }

  async update(o: Owner, id: string, v: TemplateInputs): Promise<TemplateSaved> {
    const t = await this.require(o, id);
    const cleaned = v.html === undefined ? undefined : clean(v.html);
    const categoryId = await this.category(o, v.categoryId);
    await repo.updateTemplate(this.db, o, t.id, { name: v.name, subject: v.subject, html: cleaned?.html, category_id: categoryId }, this.now());
    return { ...toTemplate((await repo.findTemplate(this.db, o, t.id))!), removedImages: cleaned?.removedImages ?? 0 };
  }

  async remove(o: Owner, id: string): Promise<void> {
    const t = await this.require(o, id);
    await repo.deleteTemplate(this.db, o, t.id);
  }

  async createCategory(o: Owner, name: string): Promise<TemplateCategory> {
    return this.db.transaction().execute(async (trx) => {
      if ((await repo.lockAndCount(trx, o, 'template_categories')) >= TEMPLATE_CATEGORY_MAX_COUNT) {
        throw invalid('name', `At most ${TEMPLATE_CATEGORY_MAX_COUNT} categories`, 'template_category.limit');
      }
      if (await repo.categoryNameTaken(trx, o, name)) throw categoryTaken();
      return toCategory(await repo.insertCategory(trx, o, name, this.now()));
    });
  }

  async renameCategory(o: Owner, id: string, name: string): Promise<TemplateCategory> {
    const c = await this.requireCategory(o, id);
    if (await repo.categoryNameTaken(this.db, o, name, c.id)) throw categoryTaken();
    await repo.renameCategory(this.db, o, c.id, name);
    return { id: String(c.id), name };
  }

  /** Its templates stay, uncategorised (ON DELETE SET NULL). */
  async removeCategory(o: Owner, id: string): Promise<void> {
    const c = await this.requireCategory(o, id);
    await repo.deleteCategory(this.db, o, c.id);
  }

  /** undefined: unchanged; "" clears; an id must be one of the same owner's categories. */
  private async category(o: Owner, id: string | undefined): Promise<number | null | undefined> {
    if (id === undefined) return undefined;
    if (id === '') return null;
    return (await this.requireCategory(o, id)).id;
  }

  private async require(o: Owner, id: string) {
    const t = await repo.findTemplate(this.db, o, Number(id));
    if (!t) throw notFound('Template');
    return t;
  }

  private async requireCategory(o: Owner, id: string) {
    const c = await repo.findCategory(this.db, o, Number(id));
    if (!c) throw notFound('Template category');
    return c;
  }
}

const categoryTaken = () => invalid('name', 'A category with this name already exists', 'template_category.name_taken');

function clean(raw: string): { html: string; removedImages: number } {
  const out = sanitizeRichHtml(raw);
  if (utf8Bytes(out.html) > TEMPLATE_MAX_BYTES) throw invalid('html', `A template is at most ${TEMPLATE_MAX_BYTES / 1024} KB`, 'template.too_large');
  return out;
}
