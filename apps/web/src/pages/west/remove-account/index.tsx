import { useEffect, useState } from 'react';
import { Button, Dialog, Toast } from 'antd-mobile';
import type { WestCancelState, WestExport } from '@mailwing/shared';
import { ApiError } from '../../../api/request';
import { westLifeApi } from '../../../api/west-life';
import { useLanguage } from '../../../i18n';
import { fill } from '../../../i18n/west';
import { useLifeT, type LifeMessages } from '../../../i18n/west-life';
import { Page } from '../../../ui/page';
import { dayText, toastError, useWestSession, yuanText } from '../west-ui';

const size = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

function lifeError(err: unknown, m: LifeMessages): void {
  if (err instanceof ApiError && err.reason && m.lifeReason[err.reason]) Toast.show({ content: m.lifeReason[err.reason] });
  else toastError(err, m);
}

function exportLine(e: WestExport, m: LifeMessages, day: (s: number) => string): string {
  if (e.state === 'done') return fill(m.lifeExportReady, { size: size(e.size), date: e.linkExpiresAt ? day(e.linkExpiresAt) : '' });
  if (e.state === 'pending') return m.lifeExportPending;
  return e.state === 'expired' ? m.lifeExportExpired : m.lifeExportFailed;
}

/** Export first, then cancel with a 30-day grace and undo; the balance left is shown (issue 19 §7). */
export default function WestRemoveAccountPage() {
  const m = useLifeT();
  const has = useWestSession();
  const language = useLanguage();
  const day = (s: number) => dayText(s, language);
  const [exports, setExports] = useState<WestExport[]>([]);
  const [state, setState] = useState<WestCancelState>();

  const load = async (quiet = false) => {
    try {
      const [e, s] = await Promise.all([westLifeApi.exports(quiet), westLifeApi.cancelStatus(quiet)]);
      setExports(e.list);
      setState(s);
    } catch (err) {
      lifeError(err, m);
    }
  };
  useEffect(() => { if (has) void load(); }, [has]);
  // The archive is built in the background: look again while one is pending.
  useEffect(() => {
    if (!exports.some((e) => e.state === 'pending')) return;
    const t = setInterval(() => void load(true), 3000);
    return () => clearInterval(t);
  }, [exports]);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await load();
    } catch (err) {
      lifeError(err, m);
    }
  };
  const cancel = async () => {
    if (await Dialog.confirm({ content: `${m.lifeCancelConfirm} ${m.lifeCancelExportHint}`, confirmText: m.lifeCancel, cancelText: m.lifeKeep })) await act(() => westLifeApi.cancel());
  };
  const latest = exports[0];
  const pending = state?.cancellation?.state === 'pending';
  return (
    <Page title={m.lifeRemoveTitle} back="/pages/west/user/index">
      <div className="mw-west">
        <div className="mw-west-section">{m.lifeStep1}</div>
        <div className="mw-west-item sub">{m.lifeStep1Hint}</div>
        {latest && (
          <div className="mw-west-item" data-testid="life-export">
            <div className="sub">{exportLine(latest, m, day)}</div>
            {latest.link && <a className="mw-west-link mw-life-touch" href={latest.link} download>{m.lifeDownload}</a>}
          </div>
        )}
        <div className="mw-life-actions">
          <Button disabled={latest?.state === 'pending'} onClick={() => void act(() => westLifeApi.requestExport())}>{m.lifeExport}</Button>
        </div>

        <div className="mw-west-section">{m.lifeStep2}</div>
        <div className="mw-west-item sub">{m.lifeStep2Hint}</div>
        <div className="mw-west-item">
          <div className="sub">{m.lifeBalance}</div>
          <div data-testid="life-balance">{yuanText(state?.balanceCents ?? 0)}</div>
        </div>
        {(state?.balanceCents ?? 0) > 0 && <div className="mw-west-item sub">{m.lifeBalanceHint}</div>}
        {pending && state?.cancellation && <div className="mw-west-item mw-life-warn" data-testid="life-pending">{fill(m.lifePending, { date: day(state.cancellation.purgeAt) })}</div>}
        {state?.cancellation?.state === 'purged' && <div className="mw-west-item mw-life-warn">{m.lifePurged}</div>}
        <div className="mw-life-actions">
          {pending
            ? <Button color="primary" onClick={() => void act(() => westLifeApi.undo())}>{m.lifeUndo}</Button>
            : <Button color="danger" disabled={state?.cancellation?.state === 'purged'} onClick={() => void cancel()}>{m.lifeCancel}</Button>}
        </div>
      </div>
    </Page>
  );
}
