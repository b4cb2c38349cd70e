import { useRoutes } from 'react-router-dom';
import NotFoundPage from '../not-found';
import './west.css';
import WestAgreePage from './agree/index';
import WestBuyMailPage from './buy-mail/index';
import WestLoginPage from './login/index';
import WestVerifyPage from './login/verify';
import WestMailDetailPage from './mail-detail/index';
import WestRechargePage from './recharge/index';
import WestRegisterPage from './register/index';
import WestRemoveAccountPage from './remove-account/index';
import WestUserPage from './user/index';

/**
 * The west storefront's pages (issue 19) and their route table, as one chunk out of the
 * first screen: the main router carries a single `/pages/west/*` route for all nine.
 * They use the customer's own session, not the mailbox's.
 */
export default function WestRoutes() {
  return useRoutes([
    { path: 'login/index', element: <WestLoginPage /> },
    { path: 'login/verify', element: <WestVerifyPage /> },
    { path: 'user/index', element: <WestUserPage /> },
    { path: 'recharge/index', element: <WestRechargePage /> },
    { path: 'buy-mail/index', element: <WestBuyMailPage /> },
    { path: 'agree/index', element: <WestAgreePage /> },
    { path: 'register/index', element: <WestRegisterPage /> },
    { path: 'mail-detail/index', element: <WestMailDetailPage /> },
    { path: 'remove-account/index', element: <WestRemoveAccountPage /> },
    // An unknown page under this prefix gets the app's own not-found page, as any other path does.
    { path: '*', element: <NotFoundPage /> },
  ]);
}
