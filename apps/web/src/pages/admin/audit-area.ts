// Issue 17 scopes 4 and 6: one lazy area for the audit and list pages, out of the first screen.
export { default as AdminAuditPage } from './audit/index';
export { default as AdminListsPage } from './lists/index';
export { default as AuditListPage } from '../audit/index';
export { default as AuditPreviewPage } from '../audit/preview';
export { default as AuditLinkPage } from '../audit/link';
