import { useCallback, useEffect, useState } from 'react';
import { Button, List, PullToRefresh, SpinLoading, Tag, Toast } from 'antd-mobile';
import { AddOutline, MailOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { formatFileSize, formatMailTime, type CollectAccount } from '@mailwing/shared';
import { collectApi } from '../../../api/collect';
import type { ApiError } from '../../../api/request';
import { timeWords } from '../../../i18n';
import { useCollectT } from '../../../i18n/collect';
import { Page } from '../../../ui/page';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import './collect.css';

const EDIT = '/pages/modules/setting-pop-edit/index';

/** Other mailboxes (setting-pop): each with its last run, its error and its paused state; check now and resume from here. */
export default function SettingPopPage() {
  const m = useCollectT();
  const navigate = useNavigate();
  const [list, setList] = useState<CollectAccount[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (loading = false) => {
    try {
      setList((await collectApi.list(loading)).list);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => { void load(); }, [load]);

  const replace = (a: CollectAccount) => setList((l) => l?.map((x) => (x.id === a.id ? a : x)) ?? null);
  const check = async (a: CollectAccount) => {
    let after: CollectAccount;
    try {
      after = await collectApi.check(a.id);
    } catch (err) {
      const e = err as ApiError;
      Toast.show({ content: m.collectErr[e.reason?.replace(/^collect\./, '') ?? ''] ?? e.message });
      // Busy: a scheduled run has it; show that one's progress.
      await load();
      return;
    }
    replace(after);
    if (!after.status.errorKind) Toast.show({ icon: 'success', content: m.collectChecked(after.status.lastCount) });
  };
  const resume = async (a: CollectAccount) => {
    const after = await collectApi.resume(a.id).catch(() => null);
    if (after) replace(after);
  };

  const now = new Date();
  const words = timeWords(m);
  let body;
  if (failed && !list) body = <ErrorState onRetry={() => void load(true)} />;
  else if (!list) body = <div className="mw-center"><SpinLoading color="primary" /></div>;
  else if (list.length === 0) body = <EmptyState icon={<MailOutline />} text={m.collectEmpty} />;
  else {
    body = (
      <List data-testid="collect-list">
        {list.map((a) => {
          const st = a.status;
          const last = st.lastRunAt
            ? m.collectLast(formatMailTime(Math.floor(Date.parse(st.lastRunAt) / 1000), now, words), st.lastCount, formatFileSize(st.lastBytes))
            : m.collectNever;
          return (
            <List.Item
              key={a.id}
              data-collect={a.id}
              data-paused={st.paused ? 'true' : 'false'}
              onClick={() => navigate(`${EDIT}?id=${a.id}`)}
              description={
                <div>
                  <div className="mw-collect-meta">{a.protocol.toUpperCase()} · {a.host}:{a.port}</div>
                  <div className="mw-collect-meta" data-testid="collect-last">{last}</div>
                  {st.errorKind && (
                    <div className="mw-collect-error" data-testid="collect-error">
                      {m.collectErrShort[st.errorKind] ?? st.errorKind}{st.errorReply ? `: ${st.errorReply}` : ''}
                    </div>
                  )}
                  {st.paused && <div className="mw-collect-error">{m.collectPausedHint}</div>}
                  <div className="mw-collect-actions" onClick={(e) => e.stopPropagation()}>
                    {st.paused
                      ? <Button size="small" color="primary" data-testid="collect-resume" onClick={() => void resume(a)}>{m.collectResume}</Button>
                      : <Button size="small" color="primary" fill="outline" data-testid="collect-check" onClick={() => void check(a)}>{m.collectCheckNow}</Button>}
                  </div>
                </div>
              }
            >
              <span className="mw-collect-title">{a.username}</span>
              {st.running
                ? <Tag color="primary" fill="outline" className="mw-collect-tag">{m.collectRunning}</Tag>
                : st.paused
                ? <Tag color="danger" fill="outline" className="mw-collect-tag">{m.collectPaused}</Tag>
                : st.errorKind ? <Tag color="warning" fill="outline" className="mw-collect-tag">{m.collectErrShort[st.errorKind]}</Tag>
                  : st.lastRunAt ? <Tag color="success" fill="outline" className="mw-collect-tag">{m.collectOk}</Tag> : null}
            </List.Item>
          );
        })}
      </List>
    );
  }

  return (
    <Page
      title={m.titleCollect}
      back="/pages/setting/index"
      bodyClassName="mw-collect-body"
      right={<Button fill="none" aria-label={m.collectAdd} data-testid="collect-add" onClick={() => navigate(EDIT)}><AddOutline fontSize={22} /></Button>}
    >
      <PullToRefresh onRefresh={() => load()} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
        <div className="mw-hint">{m.collectHint}</div>
        {body}
        {list && list.length === 0 && (
          <div className="mw-padded"><Button block color="primary" onClick={() => navigate(EDIT)}>{m.collectAdd}</Button></div>
        )}
      </PullToRefresh>
    </Page>
  );
}
