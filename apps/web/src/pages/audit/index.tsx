import { useEffect, useState } from 'react';
import { InfiniteScroll, List, PullToRefresh, Tabs } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import type { HeldMail } from '@mailwing/shared';
import { auditApi } from '../../api/audit';
import { useAuditT } from '../../i18n/audit';
import { Page } from '../../ui/page';
import '../admin/admin-audit.css';

/** The auditor's list of held mail (issue 17, scope 4): waiting first, oldest first; decided ones on the second tab. */
export default function AuditListPage() {
  const m = useAuditT();
  const navigate = useNavigate();
  const [open, setOpen] = useState(true);
  const [list, setList] = useState<HeldMail[]>([]);
  const [page, setPage] = useState(0);
  const [more, setMore] = useState(true);

  const loadPage = async (p: number, replace: boolean) => {
    const r = await auditApi.held(open, p);
    setList((prev) => (replace ? r.list : [...prev, ...r.list]));
    setPage(p);
    setMore(p * r.size < r.total);
  };
  useEffect(() => { void loadPage(1, true); }, [open]);

  return (
    <Page title={m.auditHeldTitle} back="/pages/admin/index">
      <Tabs activeKey={open ? 'open' : 'done'} onChange={(k) => setOpen(k === 'open')}>
        <Tabs.Tab title={m.auditOpen} key="open" />
        <Tabs.Tab title={m.auditDone} key="done" />
      </Tabs>
      <PullToRefresh onRefresh={() => loadPage(1, true)}>
        {list.length === 0 && !more && <div className="mw-audit-empty">{m.auditNothing}</div>}
        <List data-page="audit-list">
          {list.map((h) => (
            <List.Item key={h.id} data-held={h.subject} onClick={() => navigate(`/pages/audit/preview?id=${h.id}`)}
              description={<>{h.from.name || h.from.address} → {h.to.join(', ')}<br />{m.auditStates[h.state]} · {h.rules.join(', ')}</>}>
              {h.subject || '—'}
            </List.Item>
          ))}
        </List>
        <InfiniteScroll loadMore={() => loadPage(page + 1, false)} hasMore={more && page > 0} />
      </PullToRefresh>
    </Page>
  );
}
