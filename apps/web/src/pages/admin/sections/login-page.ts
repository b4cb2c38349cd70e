import { PictureOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

export default { key: 'login-page', order: 70, titleKey: 'admLoginPage', path: '/pages/admin/login-page/index', icon: PictureOutline } satisfies AdminSection;
