import type { Changed } from '@mailwing/shared';
import { request } from './request';

// Issue 15: the folder-wide "mark all read" (POST mailop/read-all). Its own small
// module, loaded with the inbox strip rather than with the first screen.
export const markFolderRead = (mid: string) => request<Changed>('/mailop/read-all', { method: 'POST', data: { mid } });
