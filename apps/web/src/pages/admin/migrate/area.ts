// Mail migration and announcements in the admin console load as one chunk, out of the first screen.
export { default as AdminMigratePage } from './index';
export { default as AdminAnnouncementsPage } from '../announcements/index';
export { default as AnnouncementsPage } from '../../modules/announcements/index';
