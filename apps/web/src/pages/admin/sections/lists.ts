import { StopOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// A console-home section (issue 17): company block and allow lists.
export default { key: 'lists', order: 60, title: { zh: '黑白名单', en: 'Block and allow lists' }, path: '/pages/admin/lists/index', icon: StopOutline } satisfies AdminSection;
