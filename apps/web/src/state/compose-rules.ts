import { attachmentNameProblem, fileExtension, parseAddress, UPLOAD_MAX_FILES, type ComposeLimits } from '@mailwing/shared';

// Pure rules of the compose page (spec §5, §8, §9): recipients typed as chips,
// the checks a file passes before it is uploaded, and the attachment warning.

/** One recipient chip. An invalid one keeps what was typed in `address` and shows red. */
export interface Recipient {
  name: string;
  address: string;
  valid: boolean;
}

/** What was typed for one recipient, as a chip; null when there is nothing. */
export function toRecipient(raw: string): Recipient | null {
  const text = raw.trim();
  if (!text) return null;
  const parsed = parseAddress(text);
  return parsed ? { ...parsed, valid: true } : { name: '', address: text, valid: false };
}

const ALWAYS_SPLITS = new Set([',', ';', '，', '；', '\n', '\r', '\t']);

/**
 * Cuts finished recipients off typed text. A comma, semicolon or line break
 * ends a recipient; a space ends one only once it holds an "@" and no open
 * "<" or quote, so "Bob Lee <bob@x.com>" can be typed with its spaces.
 * final (enter, blur) turns the rest into a recipient too.
 */
export function splitTyped(text: string, final = false): { done: Recipient[]; rest: string } {
  const done: Recipient[] = [];
  let current = '';
  let angle = false;
  let quote = false;
  const finish = () => {
    const r = toRecipient(current);
    if (r) done.push(r);
    current = '';
  };
  for (const ch of text) {
    if (ch === '"' && !angle) quote = !quote;
    else if (ch === '<' && !quote) angle = true;
    else if (ch === '>' && !quote) angle = false;
    const open = angle || quote;
    if (!open && ALWAYS_SPLITS.has(ch)) finish();
    else if (!open && ch === ' ' && current.includes('@')) finish();
    else current += ch;
  }
  if (final) finish();
  return { done, rest: final ? '' : current.replace(/^\s+/, '') };
}

/** Adds recipients to a list, leaving out addresses it already has. */
export function addRecipients(list: readonly Recipient[], more: readonly Recipient[]): Recipient[] {
  const out = [...list];
  for (const r of more) {
    if (!out.some((o) => o.address.toLowerCase() === r.address.toLowerCase())) out.push(r);
  }
  return out;
}

/**
 * The comma-separated form write/send takes. The server splits on commas and
 * semicolons, so a display name loses those (and quotes and brackets).
 */
export function formatRecipients(list: readonly Recipient[]): string {
  return list
    .map((r) => {
      const name = r.name.replace(/[,;，；"<>]/g, ' ').replace(/\s+/g, ' ').trim();
      return name ? `${name} <${r.address}>` : r.address;
    })
    .join(', ');
}

export type AttachProblem = 'tooMany' | 'tooLarge' | 'totalTooLarge' | 'badFormat' | 'badName';

/** Used until write/limits answers; the server checks again in any case. */
export const DEFAULT_LIMITS: ComposeLimits = {
  maxFiles: UPLOAD_MAX_FILES,
  maxFileBytes: 50 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  blockedExtensions: [],
};

export interface FileLike {
  name: string;
  size: number;
}

/**
 * Which of the picked files may be uploaded next to the ones already there
 * (spec §8, §9): names without / ? : * " < > |, no blocked extension, each
 * within the per-file limit, at most maxFiles in all and the total within
 * maxTotalBytes. Files are taken in order until a limit is reached.
 */
export function checkFiles<F extends FileLike>(
  files: readonly F[],
  current: readonly FileLike[],
  limits: ComposeLimits,
): { accepted: F[]; refused: Array<{ file: F; problem: AttachProblem }> } {
  const accepted: F[] = [];
  const refused: Array<{ file: F; problem: AttachProblem }> = [];
  const blocked = new Set(limits.blockedExtensions.map((e) => e.toLowerCase().replace(/^\./, '')));
  const maxFiles = Math.min(limits.maxFiles, UPLOAD_MAX_FILES);
  let count = current.length;
  let total = current.reduce((sum, f) => sum + f.size, 0);
  for (const file of files) {
    const problem: AttachProblem | null =
      attachmentNameProblem(file.name) ? 'badName'
        : blocked.has(fileExtension(file.name)) ? 'badFormat'
          : file.size > limits.maxFileBytes ? 'tooLarge'
            : count >= maxFiles ? 'tooMany'
              : total + file.size > limits.maxTotalBytes ? 'totalTooLarge'
                : null;
    if (problem) {
      refused.push({ file, problem });
      continue;
    }
    accepted.push(file);
    count += 1;
    total += file.size;
  }
  return { accepted, refused };
}

/** Spec §5: the text mentions an attachment (附件, attach…, any case). */
export function mentionsAttachment(text: string): boolean {
  return /附件|attach/i.test(text);
}

// write/load starts a forwarded original with a "---------- Forwarded message ----------" line.
const FORWARD_MARK = /^-{6,}/;

/**
 * The words the writer typed in an HTML body: quoted mail is left out (a
 * reply's blockquote, and a forward's original from its "----------" header
 * on), so replying to "see the attachment" does not warn by itself and a
 * reply of nothing but the quote counts as empty.
 */
export function ownText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  // The signature is not what the writer wrote (issue 16): a reply of only a signature is empty.
  for (const signature of doc.querySelectorAll('div.mw-signature, div[data-mw-signature]')) signature.remove();
  for (const quoted of doc.querySelectorAll('blockquote')) {
    // …with its "On <date>, <who> wrote:" line just above.
    const intro = quoted.previousElementSibling;
    if (intro && /[:：]\s*$/.test(intro.textContent ?? '')) intro.remove();
    quoted.remove();
  }
  const blocks = [...doc.body.children];
  const mark = blocks.findIndex((b) => FORWARD_MARK.test(b.textContent?.trim() ?? ''));
  if (mark >= 0) for (const b of blocks.slice(mark)) b.remove();
  return doc.body.textContent ?? '';
}

export type SendProblem = 'noRecipient' | 'badAddress' | 'emptySubject' | 'sendAtPast' | 'emptyReply';
export type SendField = 'to' | 'cc' | 'bcc' | 'subject' | 'sendAt' | 'body';

/**
 * Spec §5 before sending: a recipient, every address valid, a subject, a send
 * time not in the past, and a reply that says something besides the quote.
 */
export function sendProblems(input: {
  to: readonly Recipient[];
  cc: readonly Recipient[];
  bcc: readonly Recipient[];
  subject: string;
  sendAt: number | null;
  html: string;
  replyTo: string | null;
}, nowMs: number): Partial<Record<SendField, SendProblem>> {
  const out: Partial<Record<SendField, SendProblem>> = {};
  if (input.to.length + input.cc.length + input.bcc.length === 0) out.to = 'noRecipient';
  for (const field of ['to', 'cc', 'bcc'] as const) {
    if (input[field].some((r) => !r.valid)) out[field] = 'badAddress';
  }
  if (input.subject.trim() === '') out.subject = 'emptySubject';
  if (input.sendAt !== null && input.sendAt * 1000 < nowMs) out.sendAt = 'sendAtPast';
  if (input.replyTo !== null && ownText(input.html).trim() === '' && !/<img\b/i.test(input.html.replace(/<blockquote[\s\S]*<\/blockquote>/gi, ''))) {
    out.body = 'emptyReply';
  }
  return out;
}
