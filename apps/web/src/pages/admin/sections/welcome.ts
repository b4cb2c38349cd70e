import { MailOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

export default { key: 'welcome', order: 60, titleKey: 'admWelcome', path: '/pages/admin/welcome/index', icon: MailOutline } satisfies AdminSection;
