import { ActionSheet } from 'antd-mobile';
import type { Tag } from '@mailwing/shared';
import type { Messages } from '../i18n';
import type { LayerControl } from './page-layer';
import { Swatch } from './tag-chips';

interface Props extends LayerControl {
  m: Messages;
  tags: readonly Tag[];
  current: string | undefined;
  onPick: (tag: string | undefined | 'manage') => void;
}

/**
 * The tag filter's choices as a bottom sheet. Its own module, loaded on the
 * first tap, so the sheet stays out of the first-screen bundle.
 */
export function TagSheet({ m, tags, current, onPick, ...control }: Props) {
  return (
    <ActionSheet {...control} closeOnAction extra={m.filterByTag} cancelText={m.cancel}
      actions={[
        ...(current ? [{ key: '', text: m.anyTag }] : []),
        ...tags.map((t) => ({
          key: t.id,
          text: <span className="mw-sheet-tag" data-tag-id={t.id}><Swatch color={t.color} /> {t.name}</span>,
          bold: t.id === current,
        })),
        { key: 'manage', text: tags.length === 0 ? m.noTagsManage : m.manageTags },
      ]}
      onAction={(action) => onPick(action.key === 'manage' ? 'manage' : action.key ? String(action.key) : undefined)} />
  );
}
