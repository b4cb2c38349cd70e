import type { ReactNode } from 'react';
import { Badge, List } from 'antd-mobile';
import { badgeText, type Folder, type MboxIndex } from '@mailwing/shared';
import { useT } from '../i18n';
import { folderName } from './folder-name';
import { FolderIcon } from './icons';

/** Custom folders in tree order with their depth (folders nest up to 3 levels, spec §5). */
export function folderTree(custom: readonly Folder[]): Array<{ folder: Folder; depth: number }> {
  const ids = new Set(custom.map((f) => f.mid));
  const children = new Map<string, Folder[]>();
  for (const f of custom) {
    // A parent we do not know (or none) puts the folder at the top level.
    const parent = f.parent && ids.has(f.parent) ? f.parent : '';
    children.set(parent, [...(children.get(parent) ?? []), f]);
  }
  const out: Array<{ folder: Folder; depth: number }> = [];
  const walk = (parent: string, depth: number) => {
    for (const f of children.get(parent) ?? []) {
      out.push({ folder: f, depth });
      if (depth < 5) walk(f.mid, depth + 1);
    }
  };
  walk('', 0);
  return out;
}

interface FolderListProps {
  mbox: MboxIndex;
  onPick: (folder: Folder) => void;
  /** Shown on the right of a row; defaults to the unread badge. */
  extra?: (folder: Folder) => ReactNode;
  description?: (folder: Folder) => ReactNode;
  disabled?: (folder: Folder) => boolean;
}

/** System folders, then the user's own folders as an indented tree. */
export function FolderList({ mbox, onPick, extra, description, disabled }: FolderListProps) {
  const m = useT();
  const row = (folder: Folder, depth = 0) => (
    <List.Item
      key={folder.mid}
      data-mid={folder.mid}
      prefix={<FolderIcon mid={folder.mid} className="mw-folder-icon" style={{ marginLeft: depth * 16 }} />}
      description={description?.(folder)}
      extra={extra ? extra(folder) : folder.count > 0 ? <Badge content={badgeText(folder.count)} /> : null}
      disabled={disabled?.(folder)}
      onClick={() => onPick(folder)}
      arrowIcon={false}
    >
      {folderName(m, folder)}
    </List.Item>
  );
  return (
    <>
      <List header={m.systemFolders}>{mbox.system.map((f) => row(f))}</List>
      <List header={m.customFolders}>
        {mbox.custom.length === 0 ? (
          <List.Item className="mw-muted">{m.noCustomFolders}</List.Item>
        ) : (
          folderTree(mbox.custom).map(({ folder, depth }) => row(folder, depth))
        )}
      </List>
    </>
  );
}
