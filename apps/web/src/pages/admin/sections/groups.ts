import { TeamOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// A console-home section (issue 17): mail groups.
export default { key: 'groups', order: 30, title: { zh: '邮件组', en: 'Mail groups' }, path: '/pages/admin/groups/index', icon: TeamOutline } satisfies AdminSection;
