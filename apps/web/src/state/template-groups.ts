import type { Template, TemplateShelf } from '@mailwing/shared';

export interface TemplateGroup {
  /** null: the templates without a category. */
  id: string | null;
  name: string;
  templates: Template[];
}

/** Templates grouped by category in the categories' order, the uncategorised last; empty groups left out. */
export function groupByCategory(shelf: TemplateShelf, uncategorised: string): TemplateGroup[] {
  const groups: TemplateGroup[] = shelf.categories.map((c) => ({ id: c.id, name: c.name, templates: [] }));
  const loose: TemplateGroup = { id: null, name: uncategorised, templates: [] };
  for (const t of shelf.templates) (groups.find((g) => g.id === t.categoryId) ?? loose).templates.push(t);
  return [...groups, loose].filter((g) => g.templates.length > 0);
}
