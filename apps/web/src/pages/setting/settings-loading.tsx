import { useEffect, useState } from 'react';
import { SpinLoading } from 'antd-mobile';
import { reloadSettings } from '../../state/settings';
import { ErrorState } from '../../ui/state-view';

/** What a settings page shows until the settings are loaded: a spinner, or the failure with a retry. */
export function SettingsLoading() {
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    // Joins the load useSettings() has started, to learn how it ends.
    void reloadSettings().then((ok) => live && setFailed(!ok));
    return () => {
      live = false;
    };
  }, [attempt]);
  if (failed) {
    return <ErrorState onRetry={() => {
      setFailed(false);
      setAttempt((n) => n + 1);
    }} />;
  }
  return <div className="mw-center"><SpinLoading color="primary" /></div>;
}
