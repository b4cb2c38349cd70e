import { List, ProgressBar } from 'antd-mobile';
import { CloseCircleFill } from 'antd-mobile-icons';
import { formatFileSize } from '@mailwing/shared';
import { useT, type Messages } from '../../i18n';
import { compose, type ComposeAttachment } from '../../state/compose';
import type { AttachProblem } from '../../state/compose-rules';
import { useNavigate } from 'react-router-dom';
import { previewUrl } from '../../api/attachments';
import { AttachThumb } from '../../ui/attach-thumb';
import { previewHref, previewKind } from '../../ui/preview-kind';

/** A finished file's own URL: "<mailId>.<index>" is a file of a mail (a forward or a draft), a plain id an upload. */
function fileOf(a: ComposeAttachment) {
  return a.id ? { id: a.id, name: a.name, size: a.size, upload: !a.id.includes('.') } : null;
}

/** Spec §8's texts for a file refused before upload. */
export function problemText(m: Messages, problem: AttachProblem): string {
  return { tooMany: m.tooManyFiles, tooLarge: m.fileTooLarge, totalTooLarge: m.totalTooLarge, badFormat: m.badFormat, badName: m.badFileName }[problem];
}

/** The mail's attachments: each with its icon, size or upload progress, and cancel / remove. */
export function AttachmentItems({ items, compact = false }: { items: ComposeAttachment[]; compact?: boolean }) {
  const m = useT();
  const navigate = useNavigate();
  if (items.length === 0) return null;
  return (
    <List className={compact ? 'mw-compose-attachments is-compact' : 'mw-compose-attachments'}>
      {items.map((a) => (
        <List.Item
          key={a.key}
          data-attach-row={a.status}
          prefix={<AttachThumb name={a.name} size={a.size} src={a.localPreview ?? (fileOf(a) && previewUrl(fileOf(a)!))} />}
          arrowIcon={false}
          // A finished file opens in the preview (issue 14), as it would on the read page.
          onClick={a.status === 'done' && fileOf(a) && previewKind(a.name) !== 'none' ? () => navigate(previewHref(fileOf(a)!)) : undefined}
          description={
            a.status === 'uploading' ? (
              <div className="mw-upload-progress">
                <ProgressBar percent={a.progress} />
                <span>{a.progress}%</span>
              </div>
            ) : a.status === 'failed' ? (
              <span className="mw-upload-error" role="alert">{m.uploadFailed}: {a.error}</span>
            ) : (
              formatFileSize(a.size)
            )
          }
          extra={
            <button
              type="button"
              className="mw-attach-remove"
              aria-label={a.status === 'uploading' ? `${m.cancel} ${a.name}` : `${m.remove} ${a.name}`}
              onClick={(e) => {
                e.stopPropagation();
                compose.removeAttachment(a.key);
              }}
            >
              <CloseCircleFill />
            </button>
          }
        >
          <span className="mw-attach-name">{a.name}</span>
        </List.Item>
      ))}
    </List>
  );
}
