// The mail-rules pages (issue 16) load as one chunk, like security-area.ts: each page
// alone would add its own chunks to the first screen's preload map (budget.test.ts).
export { default as SettingSignaturePage } from './modules/setting-signature';
export { default as SettingTemplatePage } from './modules/setting-template';
export { default as AdminTemplatePage } from './admin/template';
export { default as SettingFilterPage } from './modules/setting-filter';
export { default as SettingFilterEditPage } from './modules/setting-filter-edit';
export { default as SettingAutoReplyPage } from './modules/setting-autoreply';
export { default as SettingPopPage } from './modules/setting-pop';
export { default as SettingPopEditPage } from './modules/setting-pop-edit';
