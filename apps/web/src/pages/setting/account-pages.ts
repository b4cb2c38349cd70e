// The account area's pages and the mailbox tab's actions, in one lazy chunk:
// each lazy chunk costs the first-screen bundle its name and its dependency
// list (vite's preload map), so these small, related pages load together.
export { default as SettingProfilePage } from '../modules/setting-profile';
export { default as SettingNicknamePage } from '../modules/setting-nickname';
export { default as SettingLanguagePage } from '../modules/setting-language';
export { default as SettingAboutPage } from '../modules/setting-about';
export { default as InformationPage } from '../information';
export { default as VersionPage } from '../other/version';
export { default as AgreementPage } from '../other/agreement';
export { default as BindMailboxPage } from '../mbox/bind';
export { pickMailbox, unbindFlow } from '../mbox/mailbox-actions';
export { switchTo } from '../../api/mailboxes';
