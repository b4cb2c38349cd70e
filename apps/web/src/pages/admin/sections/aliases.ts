import { UserAddOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// A console-home section (issue 17): aliases.
export default { key: 'aliases', order: 20, title: { zh: '别名', en: 'Aliases' }, path: '/pages/admin/aliases/index', icon: UserAddOutline } satisfies AdminSection;
