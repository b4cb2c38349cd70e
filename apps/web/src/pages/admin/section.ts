import type { ComponentType } from 'react';

/**
 * One entry on the console's home page. Each console page adds itself by a file
 * `sections/<name>.ts` with `export default { ... } satisfies AdminSection` (or named
 * exports of the same fields): the home page finds them with import.meta.glob, so adding a
 * section touches no shared file.
 *
 * The title is `title` ({ zh, en }) or `titleKey`, a key of the admin or main catalogue.
 */
export interface AdminSection {
  key: string;
  /** Lower first; ours use 10, 20, 30... so others fit between. */
  order: number;
  titleKey?: string;
  title?: { zh: string; en: string };
  /** The spec route, e.g. /pages/admin/domains/index. */
  path: string;
  /** An antd-mobile-icons component or a short text (an emoji). */
  icon?: ComponentType | string;
}
