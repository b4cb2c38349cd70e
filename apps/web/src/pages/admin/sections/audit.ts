import { CheckShieldOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// A console-home section (issue 17): outgoing-mail audit rules. The title is given here: the
// home page reads the admin catalogue, and the audit strings load with the audit pages only.
export default { key: 'audit', order: 40, title: { zh: '审核规则', en: 'Audit rules' }, path: '/pages/admin/audit/index', icon: CheckShieldOutline } satisfies AdminSection;
