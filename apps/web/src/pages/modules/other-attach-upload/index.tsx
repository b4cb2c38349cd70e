import { useRef, useState } from 'react';
import { Button } from 'antd-mobile';
import { AddOutline, FileOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { formatFileSize, UPLOAD_MAX_FILES } from '@mailwing/shared';
import { useT } from '../../../i18n';
import { compose, useCompose } from '../../../state/compose';
import type { AttachProblem } from '../../../state/compose-rules';
import { Page } from '../../../ui/page';
import { EmptyState } from '../../../ui/state-view';
import { WRITE_ROUTE } from '../../../ui/compose-button';
import { AttachmentItems, problemText } from '../../write/attachment-items';

/** Attachment upload: pick files for the mail being written; each shows its progress and can be cancelled or removed. */
export default function AttachUploadPage() {
  const m = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const { attachments, limits } = useCompose();
  const picker = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<Array<{ name: string; problem: AttachProblem }>>([]);

  const pick = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setRefused(compose.addFiles([...files]).map((r) => ({ name: r.file.name, problem: r.problem })));
  };

  // Back to the mail; opened on its own (a reload), there is no mail page behind it.
  const done = () => {
    if (location.key === 'default') navigate(WRITE_ROUTE, { replace: true });
    else navigate(-1);
  };

  const total = attachments.reduce((sum, a) => sum + a.size, 0);
  return (
    <Page
      title={m.titleAttachUpload}
      back={WRITE_ROUTE}
      right={<a className="mw-nav-action" role="button" onClick={done}>{m.done}</a>}
      footer={
        <div className="mw-attach-footer">
          <Button block color="primary" onClick={() => picker.current?.click()}>
            <AddOutline /> {m.chooseFiles}
          </Button>
        </div>
      }
    >
      <div className="mw-hint">
        {m.attachLimits(Math.min(limits.maxFiles, UPLOAD_MAX_FILES), formatFileSize(limits.maxTotalBytes))}
        {attachments.length > 0 && <div className="mw-attach-total">{m.attachTotal(attachments.length, formatFileSize(total))}</div>}
      </div>
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        data-role="attachments"
        onChange={(e) => {
          pick(e.target.files);
          e.target.value = '';
        }}
      />
      {refused.length > 0 && (
        <ul className="mw-refused" role="alert">
          {refused.map((r, i) => (
            <li key={`${r.name}-${i}`}><span className="mw-attach-name">{r.name}</span>: {problemText(m, r.problem)}</li>
          ))}
        </ul>
      )}
      {attachments.length === 0 ? (
        <EmptyState text={m.noAttachments} icon={<FileOutline />} />
      ) : (
        <AttachmentItems items={attachments} />
      )}
    </Page>
  );
}
