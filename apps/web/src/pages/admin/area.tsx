import { useRoutes } from 'react-router-dom';
import NotFoundPage from '../not-found';
import AdminDomainsPage from './domains/index';
import AdminHomePage from './index/index';
import AdminLoginPagePage from './login-page/index';
import AdminWelcomePage from './welcome/index';

/**
 * The admin console's core pages and their route table, as one chunk out of the first
 * screen: the main router carries one `/pages/admin/*` route for them. Console pages that
 * load as areas of their own (people, audit, migration, groups...) keep explicit routes,
 * which the router ranks above this splat.
 */
export default function AdminRoutes() {
  return useRoutes([
    { path: 'index/index', element: <AdminHomePage /> },
    { path: 'domains/index', element: <AdminDomainsPage /> },
    { path: 'welcome/index', element: <AdminWelcomePage /> },
    { path: 'login-page/index', element: <AdminLoginPagePage /> },
    // An unknown page under this prefix gets the app's own not-found page, as any other path does.
    { path: '*', element: <NotFoundPage /> },
  ]);
}
