import ICAL from 'ical.js';

export interface CardFields { name: string; email: string; phone: string; company: string; jobTitle: string; jobNumber: string; groups: string[] }
export interface ParsedRow { line: number; fields?: CardFields; error?: string }

const text = (v: unknown): string => (Array.isArray(v) ? v.filter(Boolean).join(' ') : typeof v === 'string' ? v : '').trim();

/**
 * Reads vCard 3.0/4.0 with ical.js, one card at a time, so a broken card is reported
 * with the line it starts on and the others still import.
 */
export function parseVcards(input: string): ParsedRow[] {
  const lines = input.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: ParsedRow[] = [];
  let start = -1;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim().toUpperCase();
    if (line === 'BEGIN:VCARD') start = i;
    else if (line === 'END:VCARD' && start >= 0) {
      out.push(readCard(lines.slice(start, i + 1).join('\r\n'), start + 1));
      start = -1;
    }
  }
  if (start >= 0) out.push({ line: start + 1, error: 'The card has no END:VCARD' });
  return out;
}

function readCard(card: string, line: number): ParsedRow {
  try {
    const comp = new ICAL.Component(ICAL.parse(card) as unknown as unknown[]);
    const n = comp.getFirstPropertyValue('n');
    const name = text(comp.getFirstPropertyValue('fn')) || text(Array.isArray(n) ? [...n].slice(0, 2).reverse() : n);
    const email = text(comp.getFirstPropertyValue('email')).replace(/^mailto:/i, '').toLowerCase();
    const categories = comp.getAllProperties('categories').flatMap((p) => p.getValues().map(text));
    return {
      line,
      fields: {
        name, email, phone: text(comp.getFirstPropertyValue('tel')).replace(/^tel:/i, ''), company: text(comp.getFirstPropertyValue('org')),
        jobTitle: text(comp.getFirstPropertyValue('title')), jobNumber: text(comp.getFirstPropertyValue('x-job-number')), groups: categories.filter(Boolean),
      },
    };
  } catch (err) {
    return { line, error: `Unreadable card: ${(err as Error).message}` };
  }
}

/** vCard 4.0 (RFC 6350), one card per contact; groups as CATEGORIES. */
export function writeVcards(rows: CardFields[]): string {
  return rows.map((r) => {
    const card = new ICAL.Component(['vcard', [], []]);
    card.addPropertyWithValue('version', '4.0');
    card.addPropertyWithValue('fn', r.name);
    card.addPropertyWithValue('email', r.email);
    if (r.phone) card.addPropertyWithValue('tel', r.phone);
    if (r.company) card.addPropertyWithValue('org', r.company);
    if (r.jobTitle) card.addPropertyWithValue('title', r.jobTitle);
    if (r.jobNumber) card.addPropertyWithValue('x-job-number', r.jobNumber);
    if (r.groups.length > 0) {
      const cat = new ICAL.Property('categories');
      cat.setValues(r.groups);
      card.addProperty(cat);
    }
    return card.toString();
  }).join('\r\n') + '\r\n';
}
