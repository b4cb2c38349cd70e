import { TruckOutline } from 'antd-mobile-icons';

// The console home's entry for mail migration (pages/admin/section.ts describes the shape).
export default { key: 'migrate', order: 80, title: { zh: '邮件搬家', en: 'Mail migration' }, path: '/pages/admin/migrate/index', icon: TruckOutline };
