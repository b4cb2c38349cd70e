import { useNavigate } from 'react-router-dom';
import type { QuickFilter } from '@mailwing/shared';
import type { ListFilters } from '../api/endpoints';
import { useT } from '../i18n';
import { useTags } from '../state/tags';
import { usePageLayer } from './page-layer';
import { Swatch } from './tag-chips';

export const QUICK_FILTERS: readonly QuickFilter[] = ['unread', 'starred', 'urgent', 'attach'];

interface Props {
  filter?: QuickFilter;
  tag?: string;
  onChange: (next: ListFilters) => void;
  disabled?: boolean;
}

/** Quick filters over a folder list: unread, starred, urgent, with attachments, and one tag; a second tap turns one off. */
export function FilterBar({ filter, tag, onChange, disabled = false }: Props) {
  const m = useT();
  const navigate = useNavigate();
  const tags = useTags();
  const current = tag ? tags.find((t) => t.id === tag) : undefined;
  const [layer, openLayer] = usePageLayer();

  const chooseTag = () => {
    const onPick = (picked: string | undefined) => {
      if (picked === 'manage') navigate('/pages/modules/tag-list/index');
      else onChange({ filter, tag: picked });
    };
    void import('./tag-sheet').then(({ TagSheet }) => openLayer((control) => <TagSheet {...control} m={m} tags={tags} current={tag} onPick={onPick} />));
  };

  const chip = (key: string, on: boolean, label: string, onClick: () => void) => (
    <button type="button" key={key} data-filter={key} className={on ? 'mw-filter is-on' : 'mw-filter'} aria-pressed={on} disabled={disabled} onClick={onClick}>
      {label}
    </button>
  );

  return (
    <div className="mw-filters" role="toolbar" aria-label={m.filters}>
      {QUICK_FILTERS.map((f) => chip(f, filter === f, m.quickFilter[f], () => onChange({ filter: filter === f ? undefined : f, tag })))}
      <button type="button" data-filter="tag" className={tag ? 'mw-filter is-on' : 'mw-filter'} aria-pressed={Boolean(tag)} disabled={disabled} onClick={chooseTag}>
        {current && <Swatch color={current.color} size={10} />}
        <span className="mw-filter-tag-name">{current ? current.name : m.filterTag}</span>
        <span className="mw-filter-arrow" aria-hidden="true" />
      </button>
      {layer}
    </div>
  );
}
