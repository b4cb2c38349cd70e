import type { SearchParams } from '../../../api/organise';

/** Date choices of the search filter; custom takes explicit since/until. */
export const DATE_RANGES = ['any', 'week', 'month', 'year', 'custom'] as const;
export type DateRange = (typeof DATE_RANGES)[number];

const DAYS: Record<Exclude<DateRange, 'any' | 'custom'>, number> = { week: 7, month: 30, year: 365 };

/** A search as the URL holds it: relative ranges stay relative, so a revisit means "the last 7 days" from then. */
export interface SearchForm {
  q: string;
  mid: string;
  range: DateRange;
  /** Unix seconds; only for the custom range. */
  since?: number;
  until?: number;
  attach: boolean;
  unread: boolean;
}

const seconds = (v: string | null): number | undefined => (v && /^\d{1,12}$/.test(v) ? Number(v) : undefined);

export function readSearchForm(params: URLSearchParams): SearchForm {
  const range = DATE_RANGES.find((r) => r === params.get('range')) ?? 'any';
  const since = seconds(params.get('since'));
  const until = seconds(params.get('until'));
  return {
    q: (params.get('q') ?? '').trim(),
    mid: /^\d{1,15}$/.test(params.get('mid') ?? '') ? params.get('mid')! : '',
    range: range === 'custom' && since === undefined && until === undefined ? 'any' : range,
    ...(range === 'custom' ? { since, until } : {}),
    attach: params.get('attach') === '1',
    unread: params.get('unread') === '1',
  };
}

export function writeSearchForm(form: SearchForm): URLSearchParams {
  const p = new URLSearchParams();
  if (form.q) p.set('q', form.q);
  if (form.mid) p.set('mid', form.mid);
  if (form.range !== 'any') p.set('range', form.range);
  if (form.range === 'custom') {
    if (form.since !== undefined) p.set('since', String(form.since));
    if (form.until !== undefined) p.set('until', String(form.until));
  }
  if (form.attach) p.set('attach', '1');
  if (form.unread) p.set('unread', '1');
  return p;
}

/** What search/mail gets for a form at time `now` (ms). */
export function searchParams(form: SearchForm, now = Date.now()): SearchParams {
  const out: SearchParams = { q: form.q };
  if (form.mid) out.mid = form.mid;
  if (form.range === 'custom') {
    if (form.since !== undefined) out.since = form.since;
    if (form.until !== undefined) out.until = form.until;
  } else if (form.range !== 'any') {
    out.since = Math.floor(now / 1000) - DAYS[form.range] * 86_400;
  }
  if (form.attach) out.attach = true;
  if (form.unread) out.unread = true;
  return out;
}

/** A picked day range as unix seconds: from the first day's start to the last day's end, in local time. */
export function dayRange(first: Date, last: Date): { since: number; until: number } {
  const start = new Date(first.getFullYear(), first.getMonth(), first.getDate());
  const end = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1);
  return { since: Math.floor(start.getTime() / 1000), until: Math.floor(end.getTime() / 1000) - 1 };
}
