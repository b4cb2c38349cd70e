import { useEffect, useState } from 'react';
import { Button, TextArea } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import type { AuditLinkView } from '@mailwing/shared';
import { auditApi } from '../../api/audit';
import type { ApiError } from '../../api/request';
import { auditReason, useAuditT } from '../../i18n/audit';
import { Page } from '../../ui/page';
import '../admin/admin-audit.css';

/** Where a link in the auditor's notification mail lands, with or without a session: one confirm, once. */
export default function AuditLinkPage() {
  const m = useAuditT();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [view, setView] = useState<AuditLinkView | null>(null);
  const [error, setError] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState('');

  useEffect(() => { auditApi.linkView(token).then(setView, (err: ApiError) => setError(auditReason(m, err))); }, [token]);
  const confirm = () => auditApi.linkDecide(token, reason).then((r) => setDone(m.auditStates[r.state] ?? r.state), (err: ApiError) => setError(auditReason(m, err)));

  return (
    <Page title={m.auditLinkTitle}>
      <div className="mw-audit" data-page="audit-link">
        {error && <div className="mw-audit-empty" role="alert">{error}</div>}
        {done && <div className="mw-audit-empty" data-done={done}>{done}</div>}
        {view && !done && !error && (
          <>
            <h3 style={{ margin: 0 }}>{view.action === 'pass' ? m.auditLinkApprove : m.auditLinkReject}</h3>
            <div className="mw-audit-meta">
              {view.item.subject}<br />{m.auditFrom}: {view.item.from.address}<br />{m.auditTo}: {view.item.to.join(', ')}
            </div>
            <pre className="mw-audit-meta" style={{ whiteSpace: 'pre-wrap' }}>{view.text.slice(0, 3000)}</pre>
            {view.action === 'reject' && <TextArea className="mw-audit-textarea" placeholder={m.auditReason} value={reason} onChange={setReason} maxLength={500} rows={3} />}
            <Button block color={view.action === 'pass' ? 'primary' : 'danger'} style={{ minHeight: 44 }} onClick={() => void confirm()}>
              {view.action === 'pass' ? m.auditApprove : m.auditReject}
            </Button>
          </>
        )}
      </div>
    </Page>
  );
}
