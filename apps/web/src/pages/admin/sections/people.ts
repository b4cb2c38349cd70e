import { TeamOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// The console home's entry for people, departments and quotas (issue 17, scope 2).
export default { key: 'people', order: 15, title: { zh: '成员与部门', en: 'People and departments' }, path: '/pages/admin/people/index', icon: TeamOutline } satisfies AdminSection;
