import { GlobalOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

export default { key: 'domains', order: 10, titleKey: 'admDomains', path: '/pages/admin/domains/index', icon: GlobalOutline } satisfies AdminSection;
