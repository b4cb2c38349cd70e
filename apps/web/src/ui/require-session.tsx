import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useGestureLocked } from '../state/gesture-lock';
import { useSession } from '../state/session';

export const CODE_AREA = '/pages/other/codeArea';

/**
 * Pages behind login send a visitor without a token to the login page, and,
 * while the gesture lock is shut, to the lock screen, which comes back here.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  const locked = useGestureLocked();
  const { pathname, search } = useLocation();
  if (!token) return <Navigate to="/pages/login/index" replace />;
  if (locked) return <Navigate to={`${CODE_AREA}?to=${encodeURIComponent(pathname + search)}`} replace />;
  return <>{children}</>;
}
