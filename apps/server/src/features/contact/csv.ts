import Papa from 'papaparse';
import type { CardFields, ParsedRow } from './vcard.js';

// Header names we recognise, in English and Chinese, as exported by common mail and phone apps.
const COLUMNS: Record<keyof CardFields, string[]> = {
  name: ['name', 'full name', 'display name', '姓名', '名字', '联系人'],
  email: ['email', 'e-mail', 'email address', 'e-mail address', '邮箱', '电子邮件', '邮件地址'],
  phone: ['phone', 'mobile', 'telephone', 'mobile phone', '电话', '手机', '手机号'],
  company: ['company', 'organization', 'organisation', '公司', '单位'],
  jobTitle: ['job title', 'title', 'position', '职位', '职务'],
  jobNumber: ['job number', 'employee id', 'employee number', '工号'],
  groups: ['group', 'groups', 'category', 'categories', '分组', '群组'],
};

const HEADER = ['Name', 'Email', 'Phone', 'Company', 'Job title', 'Job number', 'Groups'];

/** Reads CSV with a header row (papaparse); each data row is reported with its line. */
export function parseCsv(input: string): ParsedRow[] {
  const result = Papa.parse<string[]>(input.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header, ...rows] = result.data;
  if (!header) return [];
  const index = Object.fromEntries(Object.entries(COLUMNS).map(([field, names]) => [field, header.findIndex((h) => names.includes(h.trim().toLowerCase()))])) as Record<keyof CardFields, number>;
  if (index.email < 0) return [{ line: 1, error: 'The header row has no e-mail column (Email / 邮箱)' }];
  const rowErrors = new Map<number, string>(result.errors.filter((e) => e.row !== undefined).map((e) => [e.row! , e.message]));
  return rows.map((row, i) => {
    const line = i + 2;
    const problem = rowErrors.get(i + 1);
    if (problem) return { line, error: problem };
    const get = (f: keyof CardFields) => (index[f] >= 0 ? (row[index[f]] ?? '').trim() : '');
    return {
      line,
      fields: {
        name: get('name'), email: get('email').toLowerCase(), phone: get('phone'), company: get('company'), jobTitle: get('jobTitle'), jobNumber: get('jobNumber'),
        groups: get('groups').split(/[;；,，]/).map((g) => g.trim()).filter(Boolean),
      },
    };
  });
}

/** CSV with a UTF-8 byte-order mark, so spreadsheet apps read Chinese names correctly. */
export function writeCsv(rows: CardFields[]): string {
  return `\uFEFF${Papa.unparse({ fields: HEADER, data: rows.map((r) => [r.name, r.email, r.phone, r.company, r.jobTitle, r.jobNumber, r.groups.join('; ')]) })}\r\n`;
}
