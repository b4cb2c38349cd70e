import { FOLDER_MAX_DEPTH, hasForbiddenNameChar, type Folder } from '@mailwing/shared';
import type { OrganiseMessages } from '../i18n/organise';
import { folderTree } from './folder-list';

export type FolderNameProblem = 'empty' | 'chars' | 'long' | 'taken';

/**
 * Spec §5 for a folder name, checked before asking the server (which checks
 * again): not empty, none of / ? : * " < > |, at most 64 characters, and no
 * sibling of the same name (ignoring case, as the server does).
 */
export function folderNameProblem(name: string, custom: readonly Folder[], parent: string | undefined, self?: string): FolderNameProblem | null {
  const trimmed = name.trim();
  if (!trimmed) return 'empty';
  if (hasForbiddenNameChar(trimmed)) return 'chars';
  if (trimmed.length > 64) return 'long';
  const siblings = custom.filter((f) => (f.parent ?? '') === (parent ?? '') && f.mid !== self);
  if (siblings.some((f) => f.name.toLowerCase() === trimmed.toLowerCase())) return 'taken';
  return null;
}

export function folderNameMessage(m: OrganiseMessages, problem: FolderNameProblem): string {
  return { empty: m.folderNameEmpty, chars: m.folderNameChars, long: m.folderNameLong, taken: m.folderNameTaken }[problem];
}

/** The level (1–3) a custom folder is at; 0 for an unknown id. */
export function folderLevel(custom: readonly Folder[], mid: string): number {
  const entry = folderTree(custom).find((t) => t.folder.mid === mid);
  return entry ? entry.depth + 1 : 0;
}

/** True when a new folder inside `parent` would be deeper than spec §5 allows. */
export function tooDeep(custom: readonly Folder[], parent: string | undefined): boolean {
  return parent ? folderLevel(custom, parent) + 1 > FOLDER_MAX_DEPTH : false;
}
