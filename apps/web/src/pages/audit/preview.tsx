import { useEffect, useState } from 'react';
import { Button, Dialog, TextArea, Toast } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import type { HeldPreview } from '@mailwing/shared';
import { auditApi } from '../../api/audit';
import type { ApiError } from '../../api/request';
import { auditReason, useAuditT } from '../../i18n/audit';
import { useGoBack } from '../../ui/go-back';
import { Page } from '../../ui/page';
import { MailBody } from '../read-mail/mail-body';
import '../admin/admin-audit.css';

/** One held mail as the read page shows it (the same sanitised, sandboxed body), with Approve and Reject. */
export default function AuditPreviewPage() {
  const m = useAuditT();
  const goBack = useGoBack('/pages/audit/index');
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [data, setData] = useState<HeldPreview | null>(null);
  const [error, setError] = useState('');
  const fail = (err: ApiError) => Toast.show({ content: auditReason(m, err) });

  useEffect(() => { auditApi.preview(id).then(setData, (err: ApiError) => setError(auditReason(m, err))); }, [id]);

  const approve = () => auditApi.decide(id, 'pass', '').then(() => { Toast.show({ content: m.auditDecided }); goBack(); }, fail);
  const reject = async () => {
    let reason = '';
    const go = await Dialog.confirm({
      title: m.auditReject,
      content: <TextArea className="mw-audit-textarea" placeholder={m.auditReason} maxLength={500} rows={3} onChange={(v) => { reason = v; }} data-field="reject-reason" />,
      confirmText: m.auditReject, cancelText: m.auditCancel,
    });
    if (go) await auditApi.decide(id, 'reject', reason).then(() => { Toast.show({ content: m.auditDecided }); goBack(); }, fail);
  };

  const item = data?.item;
  const open = item && (item.state === 'waiting' || item.state === 'auditing');
  return (
    <Page title={m.auditPreviewTitle} back="/pages/audit/index">
      <div className="mw-audit" data-page="audit-preview" data-state={item?.state ?? ''}>
        {error && <div className="mw-audit-empty" role="alert">{error}</div>}
        {item && data && (
          <>
            <h3 style={{ margin: 0 }}>{item.subject}</h3>
            <div className="mw-audit-meta">
              {m.auditFrom}: {item.from.name} &lt;{item.from.address}&gt;<br />
              {m.auditTo}: {item.to.join(', ')}<br />
              {m.auditRules}: {item.rules.join(', ')}<br />
              {m.auditStates[item.state]}{item.reason ? ` · ${item.reason}` : ''}
              {open && <><br />{m.auditDue(new Date(item.dueAt * 1000).toLocaleString(), item.onTimeout === 'pass')}</>}
            </div>
            <div className="mw-audit-body"><MailBody html={data.mail.html || `<pre>${escapeHtml(data.mail.text)}</pre>`} title={item.subject} /></div>
            {data.mail.attachments.length > 0 && <div className="mw-audit-meta">{data.mail.attachments.map((a) => a.name).join(', ')}</div>}
            {open && (
              <div className="mw-audit-actions">
                <Button color="danger" onClick={() => void reject()} data-action="audit-reject">{m.auditReject}</Button>
                <Button color="primary" onClick={() => void approve()} data-action="audit-approve">{m.auditApprove}</Button>
              </div>
            )}
          </>
        )}
      </div>
    </Page>
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
