import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { previewUrl } from '../../../api/attachments';
import { useAttachT } from '../../../i18n/attach';
import { Page } from '../../../ui/page';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { FileFallback } from '../../attach/file-fallback';
import { PreviewBar, useFileParam } from '../../attach/preview';
import { forwardHref } from '../../read-mail/attachment-list';

/**
 * Video playback (spec: /pages/modules/video/index). playsInline keeps it in the page on
 * a phone (iOS would otherwise go full screen at once); the attachment route answers
 * Range requests, so seeking works. A format the phone cannot play gets the fallback.
 */
export default function VideoPage() {
  const m = useAttachT();
  const navigate = useNavigate();
  const file = useFileParam();
  const [failed, setFailed] = useState(false);
  const onForward = file.upload ? undefined : () => navigate(forwardHref(file));
  return (
    <Page title={m.titleVideo} navTitle={<span className="mw-preview-title">{file.name || m.titleVideo}</span>} back={TAB_ROUTES.inbox} footer={<PreviewBar file={file} onForward={onForward} />}>
      {failed ? (
        <FileFallback file={file} text={m.previewFailed} onForward={onForward} />
      ) : (
        <div className="mw-video">
          <video controls playsInline preload="metadata" src={previewUrl(file)} aria-label={m.playVideo} data-role="video" onError={() => setFailed(true)} />
        </div>
      )}
    </Page>
  );
}
