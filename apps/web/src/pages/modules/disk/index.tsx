import { useCallback, useEffect, useState } from 'react';
import { ActionSheet, Dialog, List, PullToRefresh, Toast } from 'antd-mobile';
import { FileOutline, FolderOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { formatFileSize, type DiskNode, type DiskUsage } from '@mailwing/shared';
import { diskApi } from '../../../api/disk';
import type { ApiError } from '../../../api/request';
import { diskReason, useDiskT } from '../../../i18n/disk';
import { LoadMore } from '../../../ui/load-more';
import { Page } from '../../../ui/page';
import { usePageLayer } from '../../../ui/page-layer';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { NameSheet } from './name-sheet';
import { ShareDialog } from './share-dialog';
import { addLargeAttachment } from './large-attachment';
import { DiskUploads } from './uploads';
import './disk.css';

const SIZE = 30;

/** The network disk: a folder's files, the recycle bin (?view=bin), and picking a file for compose (?pick=1). */
export default function DiskPage() {
  const m = useDiskT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const parent = params.get('parent') || undefined;
  const bin = params.get('view') === 'bin';
  const pick = params.get('pick') === '1';
  const [list, setList] = useState<DiskNode[]>([]);
  const [path, setPath] = useState<{ id: string; name: string }[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(true);
  const [usage, setUsage] = useState<DiskUsage | null>(null);
  const [naming, setNaming] = useState<{ node: DiskNode | null } | null>(null);
  const [nameError, setNameError] = useState('');
  const [sharing, setSharing] = useState<DiskNode | null>(null);
  const [layer, openLayer] = usePageLayer();

  const load = useCallback(async (next: number) => {
    const r = bin ? await diskApi.bin(next, SIZE) : await diskApi.list(parent, next, SIZE);
    setList((old) => (next === 1 ? r.list : [...old, ...r.list]));
    if ('path' in r) setPath(r.path as { id: string; name: string }[]);
    setPage(next);
    setHasMore(next * SIZE < r.total);
  }, [bin, parent]);
  const reload = useCallback(async () => {
    await load(1);
    setUsage(await diskApi.usage());
  }, [load]);
  useEffect(() => {
    setList([]);
    setHasMore(true);
    setPage(0);
    void reload().catch(() => setHasMore(false));
  }, [reload]);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await reload();
      return true;
    } catch (err) {
      Toast.show({ content: diskReason(m, err as ApiError) });
      return false;
    }
  };

  const submitName = async (name: string) => {
    try {
      if (naming?.node) await diskApi.rename(naming.node.id, name);
      else await diskApi.createFolder(name, parent);
      setNaming(null);
      await reload();
    } catch (err) {
      setNameError(diskReason(m, err as ApiError));
    }
  };

  const open = (node: DiskNode) => {
    if (bin) {
      openLayer((control) => (
        <ActionSheet {...control} closeOnAction cancelText={m.diskCancel} actions={[
          { key: 'restore', text: m.diskRestore, onClick: () => void act(() => diskApi.restore([node.id])) },
          { key: 'purge', text: m.diskPurge, danger: true, onClick: () => void Dialog.confirm({ content: m.diskPurgeConfirm, confirmText: m.diskOk, cancelText: m.diskCancel }).then((yes) => yes && act(() => diskApi.purge([node.id]))) },
        ]} />
      ));
      return;
    }
    if (node.folder) {
      navigate(`/pages/modules/disk/index?parent=${node.id}${pick ? '&pick=1' : ''}`, { replace: pick });
      return;
    }
    if (pick) {
      setSharing(node);
      return;
    }
    openLayer((control) => (
      <ActionSheet {...control} closeOnAction cancelText={m.diskCancel} actions={[
        { key: 'download', text: m.diskDownload, onClick: () => { window.location.href = diskApi.downloadUrl(node.id); } },
        { key: 'share', text: m.diskShare, onClick: () => setSharing(node) },
        { key: 'rename', text: m.diskRename, onClick: () => { setNameError(''); setNaming({ node }); } },
        ...(parent ? [{ key: 'up', text: `${m.diskMove} → ${path.length > 1 ? path[path.length - 2]!.name : m.diskRoot}`, onClick: () => void act(() => diskApi.move([node.id], path.length > 1 ? path[path.length - 2]!.id : undefined)) }] : []),
        { key: 'delete', text: m.diskDelete, danger: true, onClick: () => void act(() => diskApi.remove([node.id])) },
      ]} />
    ));
  };

  const title = bin ? m.diskBin : m.diskTitle;
  return (
    <Page title={title} back={bin || parent ? '/pages/modules/disk/index' : TAB_ROUTES.mailbox} bodyClassName="mw-disk-body"
      right={!bin && !pick ? <a className="mw-disk-nav" data-action="disk-bin" onClick={() => navigate('/pages/modules/disk/index?view=bin')}>{m.diskBin}</a> : undefined}>
      {usage && <div className="mw-disk-usage" data-usage={usage.usedBytes}>{m.diskUsage(formatFileSize(usage.usedBytes), formatFileSize(usage.quotaBytes))}</div>}
      {!bin && (
        <div className="mw-disk-crumbs">
          <a onClick={() => navigate(`/pages/modules/disk/index${pick ? '?pick=1' : ''}`, { replace: pick })}>{m.diskRoot}</a>
          {path.map((p) => <span key={p.id}> / <a onClick={() => navigate(`/pages/modules/disk/index?parent=${p.id}${pick ? '&pick=1' : ''}`, { replace: pick })}>{p.name}</a></span>)}
        </div>
      )}
      {!bin && !pick && (
        <div className="mw-disk-actions">
          <DiskUploads parent={parent} onUploaded={() => void reload()} />
          <button type="button" className="mw-disk-btn" data-action="disk-new-folder" onClick={() => { setNameError(''); setNaming({ node: null }); }}>{m.diskNewFolder}</button>
        </div>
      )}
      <PullToRefresh onRefresh={reload} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
        <List className="mw-disk-list">
          {list.map((n) => (
            <List.Item key={n.id} data-node={n.name} prefix={n.folder ? <FolderOutline className="mw-disk-icon is-folder" /> : <FileOutline className="mw-disk-icon" />}
              description={n.folder ? undefined : formatFileSize(n.size)} arrow={n.folder} onClick={() => open(n)}>
              <span className="mw-disk-name">{n.name}</span>
            </List.Item>
          ))}
        </List>
        {page > 0 && list.length === 0 && !hasMore ? <div className="mw-disk-empty">{bin ? m.diskBinEmpty : m.diskEmpty}</div> : <LoadMore hasMore={hasMore} loadMore={() => load(page + 1)} />}
      </PullToRefresh>
      <NameSheet title={naming?.node ? m.diskRename : m.diskNewFolder} initial={naming?.node?.name ?? ''} open={naming !== null} error={nameError}
        onSubmit={(name) => void submitName(name)} onClose={() => setNaming(null)} />
      <ShareDialog file={sharing} onClose={() => setSharing(null)} onShared={pick ? (_s, url) => {
        // Back to the mail being written (folders were opened in place, so one step back).
        addLargeAttachment(m.largeAttachment, sharing!, url);
        Toast.show({ content: m.attachLinkAdded });
        setSharing(null);
        navigate(-1);
      } : undefined} />
      {layer}
    </Page>
  );
}
