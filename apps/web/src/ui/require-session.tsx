import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from '../state/session';

/** Pages behind login send a visitor without a token to the login page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  if (!token) return <Navigate to="/pages/login/index" replace />;
  return <>{children}</>;
}
