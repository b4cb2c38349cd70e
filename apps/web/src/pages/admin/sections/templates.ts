import { FileOutline } from 'antd-mobile-icons';
import type { AdminSection } from '../section';

// Company templates (issue 16) predate the console; listed here too.
export default { key: 'templates', order: 80, titleKey: 'stAdminTemplate', path: '/pages/admin/template/index', icon: FileOutline } satisfies AdminSection;
