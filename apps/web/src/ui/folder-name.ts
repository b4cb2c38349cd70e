import { SYSTEM_FOLDER_IDS, type Folder } from '@mailwing/shared';
import type { Messages } from '../i18n';

/** System folders come from the server in English; show them in the user's language by id (spec §3). */
export function folderName(m: Messages, folder: Pick<Folder, 'mid' | 'name'>): string {
  if ((SYSTEM_FOLDER_IDS as readonly string[]).includes(folder.mid)) {
    return m[`folder${folder.mid}` as 'folder0'];
  }
  return folder.name;
}
