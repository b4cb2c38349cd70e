// The admin console's pages load as one chunk, out of the first screen (like pages/modules/disk/area.ts).
// Other console pages (people, audit, migration...) may join here or load as areas of their own.
export { default as AdminHomePage } from './index/index';
export { default as AdminDomainsPage } from './domains/index';
export { default as AdminWelcomePage } from './welcome/index';
export { default as AdminLoginPagePage } from './login-page/index';
