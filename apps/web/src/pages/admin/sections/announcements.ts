import { SoundOutline } from 'antd-mobile-icons';

// The console home's entry for announcements (pages/admin/section.ts describes the shape).
export default { key: 'announcements', order: 50, title: { zh: '公告', en: 'Announcements' }, path: '/pages/admin/announcements/index', icon: SoundOutline };
