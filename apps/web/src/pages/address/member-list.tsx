import { useRef, useState } from 'react';
import { LoadMore } from '../../ui/load-more';
import { PAGE_SIZE_DEFAULT, type Member } from '@mailwing/shared';
import { directoryApi, type MemberQuery } from '../../api/directory';
import { useAddressT } from '../../i18n/address';
import { EmptyState } from '../../ui/state-view';
import { joinMeta, PersonRow } from './rows';

interface Props {
  query: Omit<MemberQuery, 'page' | 'size'>;
  onOpen: (member: Member) => void;
  /** In a chooser: whether a member is ticked. */
  isChecked?: (member: Member) => boolean;
  /** Shown instead of the empty state while there is nothing to ask for (an empty search). */
  idle?: boolean;
}

/**
 * Members page by page with "load more / loading / no more" (DESIGN.md: every
 * list). Give it a key that changes with the query, so a new query starts over.
 */
export function MemberList({ query, onOpen, isChecked, idle = false }: Props) {
  const m = useAddressT();
  const [items, setItems] = useState<Member[]>([]);
  const [hasMore, setHasMore] = useState(!idle);
  const page = useRef(0);

  const loadMore = async () => {
    const next = page.current + 1;
    const result = await directoryApi.members({ ...query, page: next, size: PAGE_SIZE_DEFAULT });
    page.current = next;
    setItems((prev) => {
      const seen = new Set(prev.map((x) => x.id));
      return [...prev, ...result.list.filter((x) => !seen.has(x.id))];
    });
    setHasMore(result.list.length > 0 && next * result.size < result.total);
  };

  if (idle) return null;
  return (
    <>
      <div className="mw-ab-list mw-ab-members">
        {items.map((member) => (
          <PersonRow
            key={member.id}
            name={member.name}
            email={member.email}
            meta={joinMeta(member.jobTitle, member.department)}
            checked={isChecked?.(member)}
            onClick={() => onOpen(member)}
          />
        ))}
      </div>
      {!hasMore && items.length === 0 ? (
        <EmptyState text={m.abNoMembers} />
      ) : (
        <LoadMore loadMore={loadMore} hasMore={hasMore} />
      )}
    </>
  );
}
