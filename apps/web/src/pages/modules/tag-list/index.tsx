import { useEffect, useState } from 'react';
import { Button, List, PullToRefresh, Toast } from 'antd-mobile';
import { AddOutline, CheckOutline, EditSOutline, MinusOutline, TagOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { Tag } from '@mailwing/shared';
import { refreshMbox } from '../../../api/endpoints';
import { organiseApi } from '../../../api/organise';
import { useOrganiseT } from '../../../i18n/organise';
import { reloadTags, setTags, useTags } from '../../../state/tags';
import type { MailPickState } from '../../../ui/folder-mail-view';
import { Page } from '../../../ui/page';
import { EmptyState } from '../../../ui/state-view';
import { Swatch } from '../../../ui/tag-chips';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { TagEditor } from './tag-editor';

type Mark = 'all' | 'some' | 'none';

/** Whether all, some or none of the mails carry the tag named `name`. */
export function markOf(mailTags: readonly (readonly string[])[], name: string): Mark {
  const n = mailTags.filter((tags) => tags.includes(name)).length;
  return n === 0 ? 'none' : n === mailTags.length ? 'all' : 'some';
}

/**
 * "Mark as": the user's tags. Opened with ?ids=… it puts tags on those mails
 * or takes them off, one tap per tag; without ids it manages the tags.
 */
export default function TagListPage() {
  const m = useOrganiseT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean);
  const picking = ids.length > 0;
  const state = (location.state as MailPickState | null) ?? {};
  const tags = useTags();
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  // What the chosen mails carry, by tag name, updated as tags go on and off.
  const [mailTags, setMailTags] = useState<string[][]>(() => state.mailTags ?? ids.map(() => []));

  useEffect(() => {
    void reloadTags();
  }, []);

  const leave = () => {
    const steps = state.backSteps ?? 0;
    if (steps > 0 && location.key !== 'default') navigate(-1);
    else navigate(TAB_ROUTES.inbox, { replace: true });
  };

  const toggle = async (tag: Tag) => {
    const on = markOf(mailTags, tag.name) !== 'all';
    try {
      await organiseApi.tagMail(ids, tag.id, on);
    } catch {
      return;
    }
    setMailTags((prev) => prev.map((names) => (on ? [...new Set([...names, tag.name])] : names.filter((n) => n !== tag.name))));
    Toast.show({ content: on ? m.tagAdded(tag.name) : m.tagRemoved(tag.name) });
    void reloadTags();
    void refreshMbox();
  };

  const done = (saved: Tag | null, removedId?: string) => {
    setEditing(null);
    if (saved) {
      const old = tags.find((t) => t.id === saved.id);
      setTags(old ? tags.map((t) => (t.id === saved.id ? saved : t)) : [...tags, saved]);
      // A rename shows at once on the chosen mails' marks.
      if (old && old.name !== saved.name) setMailTags((prev) => prev.map((names) => names.map((n) => (n === old.name ? saved.name : n))));
      Toast.show({ content: old ? m.tagSaved : m.tagCreated });
    } else if (removedId) {
      const gone = tags.find((t) => t.id === removedId);
      setTags(tags.filter((t) => t.id !== removedId));
      if (gone) setMailTags((prev) => prev.map((names) => names.filter((n) => n !== gone.name)));
      Toast.show({ content: m.tagDeleted });
    }
    void reloadTags();
  };

  const row = (tag: Tag) => {
    const mark = picking ? markOf(mailTags, tag.name) : 'none';
    return (
      <List.Item
        key={tag.id}
        data-tag-id={tag.id}
        data-mark={picking ? mark : undefined}
        prefix={picking ? (
          // The whole row toggles; this only shows the state (all, some or none of the mails).
          <span
            role="checkbox"
            aria-checked={mark === 'all' ? true : mark === 'some' ? 'mixed' : false}
            aria-label={tag.name}
            className={mark === 'none' ? 'mw-check-box' : 'mw-check-box is-on'}
          >
            {mark === 'all' ? <CheckOutline /> : mark === 'some' ? <MinusOutline /> : null}
          </span>
        ) : (
          <Swatch color={tag.color} size={16} />
        )}
        description={m.tagCount(tag.count)}
        extra={picking ? (
          <span className="mw-tag-row-extra">
            <Swatch color={tag.color} size={16} />
            <a role="button" aria-label={m.editTagNamed(tag.name)} className="mw-icon-button" onClick={(e) => {
              e.stopPropagation();
              setEditing(tag);
            }}><EditSOutline /></a>
          </span>
        ) : undefined}
        arrowIcon={!picking}
        onClick={() => (picking ? void toggle(tag) : setEditing(tag))}
      >
        <span className="mw-tag-name">{tag.name}</span>
      </List.Item>
    );
  };

  return (
    <Page
      title={m.titleTagList}
      back={TAB_ROUTES.inbox}
      right={<a className="mw-nav-action" role="button" data-action="new-tag" onClick={() => setEditing('new')}><AddOutline /> {m.newTagShort}</a>}
      footer={picking ? (
        <div className="mw-page-footer">
          <Button block color="primary" onClick={leave}>{m.done}</Button>
        </div>
      ) : undefined}
    >
      <PullToRefresh onRefresh={reloadTags} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
        {picking && <div className="mw-hint">{m.tagPickHint(ids.length)}</div>}
        {tags.length === 0 ? (
          <EmptyState icon={<TagOutline />} text={m.noTags} hint={m.noTagsHint} />
        ) : (
          <List className="mw-tag-list">{tags.map(row)}</List>
        )}
        {tags.length === 0 && (
          <div className="mw-padded">
            <Button block color="primary" fill="outline" onClick={() => setEditing('new')}>{m.newTag}</Button>
          </div>
        )}
      </PullToRefresh>
      <TagEditor editing={editing} tags={tags} onClose={() => setEditing(null)} onDone={done} />
    </Page>
  );
}
