import { describe, expect, it } from 'vitest';
import { folderTree } from './folder-list';
import { folderName } from './folder-name';
import { en } from '../i18n/en';
import { zh } from '../i18n/zh';

describe('folders', () => {
  it('orders custom folders as a tree with depths', () => {
    const f = (mid: string, parent?: string) => ({ mid, name: mid, parent, count: 0, total: 0 });
    const tree = folderTree([f('100'), f('102', '101'), f('101', '100'), f('103'), f('104', '999')]);
    expect(tree.map((t) => `${t.folder.mid}:${t.depth}`)).toEqual(['100:0', '101:1', '102:2', '103:0', '104:0']);
  });

  it('localises system folders by id and keeps custom names', () => {
    expect(folderName(zh, { mid: '0', name: 'Inbox' })).toBe('收件箱');
    expect(folderName(en, { mid: '6', name: 'MailHistory' })).toBe('Mail history');
    expect(folderName(zh, { mid: '100', name: 'Projects' })).toBe('Projects');
  });
});
