import { useEffect, useState, type ReactNode } from 'react';
import { SpinLoading } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import { useSession, sameAddress } from '../../state/session';
import { loadAccountPages } from '../setting/load-account-pages';


/**
 * A page opened for a given mailbox (`&email=`, as a push notification's link
 * carries) switches to it first when it is another bound mailbox, so the page
 * loads with that mailbox's token. Otherwise it shows the page as it is.
 */
export function MailboxParam({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const current = useSession((s) => s.currentEmailName);
  const bound = useSession((s) => s.mailList.some((b) => sameAddress(b.email, email)));
  const [failed, setFailed] = useState('');
  const needed = Boolean(email) && bound && !sameAddress(email, current) && failed !== email;

  useEffect(() => {
    if (!needed) return;
    // Loaded on demand: only a notification's link needs it.
    void loadAccountPages().then(({ switchTo }) => switchTo(email)).then((ok) => {
      if (!ok) setFailed(email);
    }, () => setFailed(email));
  }, [needed, email]);

  if (needed) return <div className="mw-center mw-fill"><SpinLoading color="primary" /></div>;
  return <>{children}</>;
}
