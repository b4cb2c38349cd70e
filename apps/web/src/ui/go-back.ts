import { useLocation, useNavigate } from 'react-router-dom';

/**
 * "Back" after a page finishes (a save, a decision). A page opened directly (a reload, a
 * link from a mail) has no page of ours behind it: history.back() would leave the app
 * (about:blank), so it goes to `fallback` instead (issue 15's nickname trap).
 */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key === 'default') navigate(fallback, { replace: true });
    else navigate(-1);
  };
}
