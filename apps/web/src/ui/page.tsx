import { useEffect, type ReactNode } from 'react';
import { NavBar } from 'antd-mobile';
import { useLocation, useNavigate } from 'react-router-dom';
import { useT } from '../i18n';

interface PageProps {
  /** The spec's page title: document title, and nav bar unless navTitle is given. */
  title: string;
  navTitle?: ReactNode;
  /** Where back goes when the page was opened directly (no history); false hides back. */
  back?: string | false;
  /** Shown after the back arrow, e.g. a list's "Edit". */
  left?: ReactNode;
  right?: ReactNode;
  /** Stays under the nav bar while the body scrolls (a list's filter row). */
  header?: ReactNode;
  footer?: ReactNode;
  /** Set when the body scrolls itself (lists with pull-to-refresh need their own scroller). */
  bodyClassName?: string;
  children: ReactNode;
}

/** A page: light grey nav bar with black text (spec §2), a scrolling body, an optional footer. */
export function Page({ title, navTitle, back = false, left, right, header, footer, bodyClassName, children }: PageProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const m = useT();
  useEffect(() => {
    document.title = `${title} - ${m.appName}`;
  }, [title, m.appName]);

  const onBack = back === false ? undefined : () => {
    // 'default' is the key of the first entry: nothing in our history to go back to.
    if (location.key === 'default') navigate(back, { replace: true });
    else navigate(-1);
  };

  return (
    <div className="mw-page">
      {/* antd-mobile hides the back arrow when `back` (its text) is null. */}
      <NavBar className="mw-nav" back={back === false ? null : ''} onBack={onBack} left={left} right={right}>
        {navTitle ?? title}
      </NavBar>
      {header}
      <div className={`mw-body ${bodyClassName ?? ''}`}>{children}</div>
      {footer}
    </div>
  );
}
