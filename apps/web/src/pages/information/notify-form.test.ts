import { describe, expect, it } from 'vitest';
import type { MboxIndex } from '@mailwing/shared';
import { appSettingForm, formOf, notifyFolderChoices, timeColumns, timeOf, wrapsMidnight } from './notify-form';

const mbox: MboxIndex = {
  system: ['0', '1', '2', '3', '4', '5', '6'].map((mid) => ({ mid, name: `F${mid}`, count: 0, total: 0 })),
  custom: [
    { mid: '101', name: 'Projects', count: 0, total: 0 },
    { mid: '102', name: 'Alpha', parent: '101', count: 0, total: 0 },
  ],
};

describe('notification form', () => {
  it('offers the folders that receive mail, then one’s own in tree order; never Sent, Drafts, Spam, Deleted', () => {
    expect(notifyFolderChoices(mbox).map((c) => [c.folder.mid, c.depth])).toEqual([['0', 0], ['5', 0], ['6', 0], ['101', 0], ['102', 1]]);
    expect(notifyFolderChoices(null).map((c) => c.folder.mid)).toEqual(['0', '5', '6']);
  });

  it('reads the server’s settings without the silent folders', () => {
    const form = formOf({ newMail: true, quietEnabled: true, quietStart: '22:00', quietEnd: '07:00', timeZone: 'UTC', folders: ['0', '3', '101'] });
    expect(form).toEqual({ newMail: true, quietEnabled: true, quietStart: '22:00', quietEnd: '07:00', folders: ['0', '101'] });
  });

  it('sends the changed fields with the device time zone, folders comma-separated', () => {
    expect(appSettingForm({ quietStart: '23:15' }, 'Asia/Shanghai')).toEqual({ quietStart: '23:15', timeZone: 'Asia/Shanghai' });
    expect(appSettingForm({ folders: ['0', '3', '102'] }, 'UTC')).toEqual({ folders: '0,102', timeZone: 'UTC' });
    expect(appSettingForm({ folders: [] }, 'UTC')).toEqual({ folders: '', timeZone: 'UTC' });
  });

  it('converts HH:MM to the picker’s columns and back', () => {
    expect(timeColumns('07:05')).toEqual(['07', '05']);
    expect(timeColumns('7:5')).toEqual(['00', '00']);
    expect(timeOf(['22', '30'])).toBe('22:30');
    expect(timeOf([9, 0])).toBe('09:00');
    expect(timeOf([null, undefined])).toBe('00:00');
    expect(timeOf(timeColumns('23:59'))).toBe('23:59');
  });

  it('knows a window that runs past midnight', () => {
    expect(wrapsMidnight('22:00', '07:00')).toBe(true);
    expect(wrapsMidnight('12:00', '14:00')).toBe(false);
    expect(wrapsMidnight('08:00', '08:00')).toBe(true);
  });
});
