import { z } from 'zod';
import { RichHtml } from './signature.js';

// Issue 16, scope 2: templates with categories. Personal ones belong to a mailbox;
// company ones are kept by the company admin and read by everyone in the company.
//   GET  template/list                          → TemplateBook (personal and company, with categories)
//   POST template/create | update | delete      TemplateInput | TemplateUpdateInput | TemplateIdInput
//   POST template/category-create | category-rename | category-delete
//   GET  admin/templates/list                   → TemplateShelf (the company's)    admin only (403 access.forbidden)
//   POST admin/templates/create | update | delete | category-create | category-rename | category-delete
// Refusals: template.not_found / template_category.not_found (404), template.limit, template.too_large,
// template_category.limit, template_category.name_taken (422).

export const TEMPLATE_MAX_COUNT = 200;
export const TEMPLATE_MAX_BYTES = 100 * 1024;
export const TEMPLATE_CATEGORY_MAX_COUNT = 50;

const id = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');

export const TemplateName = z.string({ error: 'is required' }).trim().min(1, 'Name must not be empty').max(60, 'Name is at most 60 characters');
export const CategoryName = z.string({ error: 'is required' }).trim().min(1, 'Name must not be empty').max(30, 'Name is at most 30 characters');
const Subject = z.string().max(998, 'Subject is at most 998 characters');

export const TemplateCategory = z.object({ id: z.string(), name: z.string() });
export type TemplateCategory = z.infer<typeof TemplateCategory>;

export const Template = z.object({
  id: z.string(),
  /** null: not in a category. */
  categoryId: z.string().nullable(),
  name: z.string(),
  subject: z.string(),
  html: z.string(),
  updatedAt: z.number().int(),
});
export type Template = z.infer<typeof Template>;

export const TemplateShelf = z.object({ categories: z.array(TemplateCategory), templates: z.array(Template) });
export type TemplateShelf = z.infer<typeof TemplateShelf>;
export const TemplateBook = z.object({ personal: TemplateShelf, company: TemplateShelf });
export type TemplateBook = z.infer<typeof TemplateBook>;

export const TemplateSaved = Template.extend({ removedImages: z.number().int() });
export type TemplateSaved = z.infer<typeof TemplateSaved>;

const categoryRef = z.union([id, z.literal('')]);
export const TemplateInput = z.object({ name: TemplateName, categoryId: categoryRef.optional(), subject: Subject.default(''), html: RichHtml });
export const TemplateUpdateInput = z.object({ id, name: TemplateName.optional(), categoryId: categoryRef.optional(), subject: Subject.optional(), html: RichHtml.optional() });
export const TemplateIdInput = z.object({ id });
export const CategoryInput = z.object({ name: CategoryName });
export const CategoryRenameInput = z.object({ id, name: CategoryName });
