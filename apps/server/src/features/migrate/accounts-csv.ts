// The migration CSV: old address, old password (or app password), new mailbox. Quoted
// fields (RFC 4180) are allowed, since passwords may hold commas; a header line is skipped.

export interface CsvAccount { line: number; oldAddress: string; password: string; newAddress: string }

function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur === '') quoted = true;
    else if (ch === ',') { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out;
}

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export function parseAccountsCsv(text: string, max: number): { rows: CsvAccount[]; errors: { line: number; reason: string }[] } {
  const rows: CsvAccount[] = [];
  const errors: { line: number; reason: string }[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.trim() === '') continue;
    const [oldAddress = '', password = '', newAddress = '', ...rest] = fields(raw).map((f, k) => (k === 1 ? f : f.trim()));
    if (i === 0 && !EMAIL.test(oldAddress)) continue;
    if (rows.length >= max) { errors.push({ line, reason: 'migrate.too_many_rows' }); break; }
    if (rest.some((r) => r.trim() !== '') || !EMAIL.test(oldAddress) || !EMAIL.test(newAddress)) errors.push({ line, reason: 'migrate.bad_line' });
    else if (!password || /[\r\n\0]/.test(password)) errors.push({ line, reason: 'migrate.no_password' });
    else rows.push({ line, oldAddress, password, newAddress: newAddress.toLowerCase() });
  }
  return { rows, errors };
}
