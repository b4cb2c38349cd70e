import type { Language } from './index';

// The Settings tab's "Mail rules" group label and the other-mailboxes row: a few words in the
// first-screen bundle; the pages behind the row bring their own strings (collect.ts).
export const mailRulesRow: Record<Language, { group: string; collect: string }> = {
  en: { group: 'Mail rules', collect: 'Other mailboxes' },
  zh: { group: '邮件规则', collect: '收取外部邮箱' },
};
