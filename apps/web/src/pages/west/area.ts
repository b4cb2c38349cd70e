import './west.css';

// The west storefront's pages (issue 19) load as one chunk, out of the first screen.
// mail-detail and remove-account are built on the company-life branch.
export { default as WestLoginPage } from './login/index';
export { default as WestVerifyPage } from './login/verify';
export { default as WestUserPage } from './user/index';
export { default as WestRechargePage } from './recharge/index';
export { default as WestBuyMailPage } from './buy-mail/index';
export { default as WestAgreePage } from './agree/index';
export { default as WestRegisterPage } from './register/index';
export { default as WestMailDetailPage } from './mail-detail/index';
export { default as WestRemoveAccountPage } from './remove-account/index';
