import { ActionSheet, type ActionSheetProps } from 'antd-mobile';
import { usePageLayer } from '../../ui/page-layer';
import { ForwardIcon, MoreIcon, ReplyAllIcon, ReplyIcon } from './reply-icons';

export type ComposeParam = 'reply' | 'replyAll' | 'forward';

/** One action of the "more" sheet. */
export interface MoreAction {
  key: string;
  text: string;
  danger?: boolean;
  onPress: () => void;
}

/**
 * The read page's bottom bar (issue 14, scope 3): Reply, Reply all and Forward first, as
 * the anchor apps have them; the rest (star, unread, move, tags, archive, junk, delete)
 * in one "more" sheet. Every target is a full bar cell, at least 44 px high.
 */
export function ReadActions({ labels, onCompose, more, canReply }: {
  labels: { reply: string; replyAll: string; forward: string; more: string; cancel: string };
  onCompose: (param: ComposeParam) => void;
  more: MoreAction[];
  /** A timed mail not yet sent has nothing to answer. */
  canReply: boolean;
}) {
  const [layer, openLayer] = usePageLayer();
  const openMore = () => {
    const actions: ActionSheetProps['actions'] = more.map((a) => ({ key: a.key, text: <span data-action={a.key}>{a.text}</span>, danger: a.danger, onClick: a.onPress }));
    openLayer((control) => <ActionSheet {...control} closeOnAction actions={actions} cancelText={labels.cancel} />);
  };
  return (
    <div className="mw-actions mw-read-actions" role="toolbar">
      {canReply && (
        <>
          <button type="button" data-action="reply" className="is-primary" onClick={() => onCompose('reply')}><ReplyIcon /><span>{labels.reply}</span></button>
          <button type="button" data-action="reply-all" onClick={() => onCompose('replyAll')}><ReplyAllIcon /><span>{labels.replyAll}</span></button>
          <button type="button" data-action="forward" onClick={() => onCompose('forward')}><ForwardIcon /><span>{labels.forward}</span></button>
        </>
      )}
      <button type="button" data-action="more" aria-haspopup="dialog" onClick={openMore}><MoreIcon /><span>{labels.more}</span></button>
      {layer}
    </div>
  );
}
