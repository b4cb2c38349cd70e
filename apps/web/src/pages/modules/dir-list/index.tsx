import { useEffect, useState } from 'react';
import { ActionSheet, Dialog, List, PullToRefresh, Toast } from 'antd-mobile';
import { AddOutline, CheckOutline, MoreOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { badgeText, FIRST_CUSTOM_FOLDER_ID, FOLDER_MAX_DEPTH, type Folder } from '@mailwing/shared';
import { refreshMbox } from '../../../api/endpoints';
import { organiseApi } from '../../../api/organise';
import { useOrganiseT } from '../../../i18n/organise';
import { session, useSession } from '../../../state/session';
import { FolderList, folderTree } from '../../../ui/folder-list';
import { folderLevel } from '../../../ui/folder-rules';
import { Page } from '../../../ui/page';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { usePageLayer } from '../../../ui/page-layer';
import { RenameDialog } from './rename-dialog';

const CREATE_DIR = '/pages/modules/create-dir/index';
const ARCHIVE_CHOICES = [0, 30, 90, 180, 365] as const;

/** A folder and every folder under it. */
export function subtree(custom: readonly Folder[], mid: string): Folder[] {
  const out = custom.filter((f) => f.mid === mid);
  for (let i = 0; i < out.length; i++) {
    for (const f of custom) if (f.parent === out[i]!.mid) out.push(f);
  }
  return out;
}

/** Folders: picks the folder the Inbox tab shows, and creates, renames and deletes the user's own. */
export default function DirListPage() {
  const m = useOrganiseT();
  const navigate = useNavigate();
  const location = useLocation();
  const mbox = useSession((s) => s.mbox);
  const current = useSession((s) => s.currentFolder);
  const [renaming, setRenaming] = useState<Folder | null>(null);
  const [archiveDays, setArchiveDays] = useState<number | null>(null);
  const custom = mbox?.custom ?? [];
  const [layer, openLayer] = usePageLayer();

  useEffect(() => {
    void refreshMbox();
    organiseApi.autoArchive().then((r) => setArchiveDays(r.days), () => undefined);
  }, []);

  const open = (f: Folder) => {
    session.setCurrentFolder(f.mid);
    if (location.key === 'default') navigate(TAB_ROUTES.inbox, { replace: true });
    else navigate(-1);
  };

  const remove = async (folder: Folder) => {
    const tree = subtree(custom, folder.mid);
    const mails = tree.reduce((n, f) => n + f.total, 0);
    // Spec §4: deleting moves mail to Deleted, so say so before it happens.
    if (mails > 0 || tree.length > 1) {
      const sure = await Dialog.confirm({
        title: m.deleteFolderTitle(folder.name),
        content: m.deleteFolderConfirm(mails, tree.length - 1),
        confirmText: m.delete,
        cancelText: m.cancel,
      });
      if (!sure) return;
    }
    let moved: number;
    try {
      moved = (await organiseApi.deleteFolder(folder.mid)).moved;
    } catch {
      return;
    }
    if (tree.some((f) => f.mid === session.get().currentFolder)) session.setCurrentFolder('0');
    Toast.show({ content: m.folderDeleted(moved) });
    void refreshMbox();
  };

  const actions = (folder: Folder) => {
    const canNest = folderLevel(custom, folder.mid) < FOLDER_MAX_DEPTH;
    openLayer((control) => (
      <ActionSheet {...control} closeOnAction extra={folder.name} cancelText={m.cancel}
        actions={[
          { key: 'rename', text: m.renameFolder },
          ...(canNest ? [{ key: 'sub', text: m.newSubfolder }] : []),
          { key: 'delete', text: m.deleteFolder, danger: true },
        ]}
        onAction={(action) => {
          if (action.key === 'rename') setRenaming(folder);
          else if (action.key === 'sub') navigate(`${CREATE_DIR}?parent=${encodeURIComponent(folder.mid)}`);
          else if (action.key === 'delete') void remove(folder);
        }} />
    ));
  };

  const setArchive = async (days: number) => {
    try {
      setArchiveDays((await organiseApi.setAutoArchive(days)).days);
    } catch {
      return;
    }
    Toast.show({ content: m.saved });
  };
  const chooseArchive = () => openLayer((control) => (
    <ActionSheet {...control} closeOnAction extra={m.autoArchiveHint} cancelText={m.cancel}
      actions={ARCHIVE_CHOICES.map((days) => ({ key: days, text: m.autoArchiveDays(days), bold: days === archiveDays }))}
      onAction={(action) => void setArchive(Number(action.key))} />
  ));

  return (
    <Page
      title={m.titleDirList}
      back={TAB_ROUTES.inbox}
      right={<a className="mw-nav-action" role="button" data-action="new-folder" onClick={() => navigate(CREATE_DIR)}><AddOutline /> {m.newFolderShort}</a>}
    >
      <PullToRefresh
        onRefresh={async () => {
          await refreshMbox();
          setArchiveDays((await organiseApi.autoArchive()).days);
        }}
        pullingText={m.pullToRefresh}
        canReleaseText={m.releaseToRefresh}
        refreshingText={m.refreshing}
        completeText={m.refreshed}
      >
        {mbox && (
          <FolderList
            mbox={mbox}
            description={(f) => m.total(f.total)}
            extra={(f) => (
              <span className="mw-folder-extra">
                {f.mid === current ? <CheckOutline className="mw-check" /> : <span className="mw-count">{badgeText(f.count)}</span>}
                {Number(f.mid) >= FIRST_CUSTOM_FOLDER_ID && (
                  <a role="button" className="mw-icon-button" aria-label={m.folderActions(f.name)} data-folder-actions={f.mid} onClick={(e) => {
                    e.stopPropagation();
                    actions(f);
                  }}>
                    <MoreOutline />
                  </a>
                )}
              </span>
            )}
            onPick={open}
          />
        )}
        {mbox && folderTree(custom).length === 0 && (
          <div className="mw-hint">{m.noCustomFoldersHint}</div>
        )}
        {archiveDays !== null && (
          <List header={m.mailHistory} className="mw-gap">
            <List.Item extra={m.autoArchiveDays(archiveDays)} onClick={chooseArchive} data-setting="auto-archive">{m.autoArchive}</List.Item>
          </List>
        )}
      </PullToRefresh>
      <RenameDialog
        folder={renaming}
        custom={custom}
        onClose={() => setRenaming(null)}
        onRenamed={() => {
          setRenaming(null);
          Toast.show({ content: m.folderRenamed });
          void refreshMbox();
        }}
      />
      {layer}
    </Page>
  );
}
