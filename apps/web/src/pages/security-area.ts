// The account-security pages (issue 7) load as one chunk: each page alone
// would add its own chunks to the first screen's preload map (budget.test.ts).
export { default as VerifyPage } from './verify';
export { default as ForgetPage } from './forget';
export { default as SettingSecurityPage } from './modules/setting-security';
export { default as SettingPasswordPage } from './modules/setting-password';
export { default as SettingDevicesPage } from './modules/setting-devices';
export { default as SetAreaPage } from './other/set-area';
export { default as CodeAreaPage } from './other/code-area';
