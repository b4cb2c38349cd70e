import { MailOpenOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// A console-home section (issue 17): held mail waiting for a decision (auditors reach it at /pages/audit/index too).
export default { key: 'audit-held', order: 41, title: { zh: '待审核邮件', en: 'Mail to audit' }, path: '/pages/audit/index', icon: MailOpenOutline } satisfies AdminSection;
