import { SYSTEM_FOLDER_NAMES } from '../mailbox/mailbox.repository.js';

// Which of our folders a remote IMAP folder lands in. SPECIAL-USE (RFC 6154) first, since
// it is the server saying what the folder is; then the names the big providers use, since
// many servers (and Dovecot by default) announce no SPECIAL-USE at all.

export interface RemoteFolder { path: string; specialUse?: string; flags?: Set<string>; delimiter?: string }

const BY_USE: Record<string, number> = { '\\Inbox': 0, '\\Sent': 1, '\\Drafts': 2, '\\Junk': 3, '\\Trash': 4 };
const BY_NAME: [RegExp, number][] = [
  [/^inbox$/i, 0],
  [/^(sent|sent items|sent messages|sent mail|已发送|已发送邮件|已发邮件)$/i, 1],
  [/^(drafts?|草稿|草稿箱)$/i, 2],
  [/^(junk|spam|junk e-?mail|bulk mail|垃圾邮件|垃圾箱)$/i, 3],
  [/^(trash|deleted|deleted items|deleted messages|bin|已删除|已删除邮件)$/i, 4],
];
/** Views of mail that lives in other folders too (Gmail's All Mail, Starred): copying them would duplicate it. */
const SKIP_USE = new Set(['\\All', '\\Flagged', '\\Important']);

export type Target = { system: number } | { custom: string };

/** The folders worth copying, each with where it goes; a folder one cannot SELECT is left out. */
export function mapFolders(listed: RemoteFolder[]): { path: string; target: Target }[] {
  const out: { path: string; target: Target }[] = [];
  const taken = new Set<number>();
  const sorted = [...listed].sort((a, b) => Number(!!b.specialUse) - Number(!!a.specialUse) || a.path.localeCompare(b.path));
  for (const f of sorted) {
    const flags = f.flags ?? new Set<string>();
    if (flags.has('\\Noselect') || flags.has('\\NonExistent') || (f.specialUse && SKIP_USE.has(f.specialUse))) continue;
    const last = f.delimiter ? f.path.split(f.delimiter).pop()! : f.path;
    const system = f.path.toUpperCase() === 'INBOX' ? 0
      : f.specialUse && BY_USE[f.specialUse] !== undefined ? BY_USE[f.specialUse]
      : f.path === last ? BY_NAME.find(([re]) => re.test(last))?.[1] : undefined;
    // A second "Sent" (say both "Sent" and "Sent Messages") keeps its own folder rather than merging unseen.
    if (system !== undefined && !taken.has(system)) {
      taken.add(system);
      out.push({ path: f.path, target: { system } });
    } else {
      out.push({ path: f.path, target: { custom: f.delimiter ? f.path.split(f.delimiter).join('/') : f.path } });
    }
  }
  return out;
}

export const targetLabel = (t: Target): string => ('system' in t ? SYSTEM_FOLDER_NAMES[String(t.system)] ?? String(t.system) : t.custom);
