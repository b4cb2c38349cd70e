import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import * as tus from 'tus-js-client';
import type { DiskBinList, DiskList, DiskNode, DiskUsage, Share, ShareInfo } from '@mailwing/shared';
import { PAGE_SIZE_DEFAULT } from '@mailwing/shared';
import { session } from '../state/session';
import { ApiError, apiBase, apiUrl, request, type Params } from './request';

// The network disk's calls (issue 18), loaded with the disk pages only. Uploads go
// through tus (resumable): tus-js-client keeps each upload's URL in localStorage
// under the file's fingerprint, so a dropped network retries, and a reload or a
// killed app resumes when the same file is picked again.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });
const ids = (list: readonly string[]) => list.join(',');

export const diskApi = {
  list: (parent: string | undefined, page: number, size = PAGE_SIZE_DEFAULT) => request<DiskList>('/disk/list', { data: { parent, page, size }, loading: false, quiet: true }),
  bin: (page: number, size = PAGE_SIZE_DEFAULT) => request<DiskBinList>('/disk/bin', { data: { page, size }, loading: false, quiet: true }),
  usage: () => request<DiskUsage>('/disk/usage', { loading: false, quiet: true }),
  createFolder: (name: string, parent?: string) => post<DiskNode>('/disk/create-folder', { name, parent }),
  rename: (id: string, name: string) => post<DiskNode>('/disk/rename', { id, name }),
  move: (list: readonly string[], parent?: string) => post<{ changed: number }>('/disk/move', { ids: ids(list), parent }),
  remove: (list: readonly string[]) => post<{ changed: number }>('/disk/delete', { ids: ids(list) }),
  restore: (list: readonly string[]) => post<{ changed: number }>('/disk/restore', { ids: ids(list) }),
  purge: (list: readonly string[]) => post<{ changed: number }>('/disk/purge', { ids: ids(list) }),
  share: (id: string, days: number, password?: string) => post<Share>('/disk/share/create', { id, days, password }),
  revokeShare: (id: string) => post<unknown>('/disk/share/revoke', { id }),
  shareInfo: (s: string) => request<ShareInfo>('/disk/share/info', { data: { s }, loading: false, quiet: true }),
  downloadUrl: (id: string) => apiUrl('/disk/download', { id }),
  /** Without a session: what a mail's recipient opens. */
  shareDownloadUrl: (s: string) => `${apiBase()}/disk/share/download?s=${encodeURIComponent(s)}`,
  shareDownloadAction: () => `${apiBase()}/disk/share/download`,
  /** The page a share link opens, on this server. */
  sharePageUrl: (token: string) => `${window.location.origin}${window.location.pathname}#/pages/modules/disk/share?s=${encodeURIComponent(token)}`,
};

const HASH_SLICE = 8 * 1024 * 1024;

/** The file's sha256, read in slices so a 2 GB file is never held whole. */
export async function fileSha256(file: Blob, onProgress?: (done: number) => void): Promise<string> {
  const h = sha256.create();
  for (let at = 0; at < file.size; at += HASH_SLICE) {
    h.update(new Uint8Array(await file.slice(at, at + HASH_SLICE).arrayBuffer()));
    onProgress?.(Math.min(file.size, at + HASH_SLICE));
  }
  return bytesToHex(h.digest());
}

export interface DiskUploadHandlers {
  onHashing?: (done: number, total: number) => void;
  onProgress: (sent: number, total: number) => void;
  onDone: (fileId: string | null) => void;
  onError: (err: ApiError) => void;
}

export interface RunningUpload { abort(): void }

/** Uploads (or resumes) one file into a folder of the disk. */
export async function uploadToDisk(file: File, parent: string | undefined, h: DiskUploadHandlers): Promise<RunningUpload> {
  const digest = await fileSha256(file, (done) => h.onHashing?.(done, file.size));
  const upload = new tus.Upload(file, {
    endpoint: `${apiBase()}/disk/tus`,
    headers: { Authorization: `Bearer ${session.get().token ?? ''}` },
    metadata: { filename: file.name, filetype: file.type, sha256: digest, ...(parent ? { parent } : {}) },
    // Each PATCH stays well inside the server's request timeout on a slow phone link.
    chunkSize: 16 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) => h.onProgress(sent, total),
    onSuccess: (payload) => h.onDone(payload.lastResponse.getHeader('X-Disk-File-Id') ?? null),
    onError: (err) => h.onError(toApiError(err)),
  });
  const previous = await upload.findPreviousUploads();
  if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
  upload.start();
  return { abort: () => { void upload.abort(); } };
}

/** Uploads left unfinished by a reload or a killed app: the user picks the same file again to resume them. */
export async function unfinishedUploads(): Promise<{ name: string; size: number; key: string }[]> {
  if (!tus.canStoreURLs) return [];
  const all = await tus.defaultOptions.urlStorage.findAllUploads();
  return all.map((u) => ({ name: String(u.metadata?.filename ?? ''), size: Number(u.size ?? 0), key: u.urlStorageKey }));
}

export async function forgetUnfinished(key: string): Promise<void> {
  await tus.defaultOptions.urlStorage.removeUpload(key);
}

function toApiError(err: Error): ApiError {
  const res = (err as tus.DetailedError).originalResponse;
  if (!res) return new ApiError(0, err.message);
  try {
    const body = JSON.parse(res.getBody()) as { code?: number; error?: unknown; reason?: string };
    return new ApiError(body.code ?? -res.getStatus(), typeof body.error === 'string' ? body.error : JSON.stringify(body.error ?? ''), {}, undefined, body.reason);
  } catch {
    return new ApiError(-res.getStatus(), `HTTP ${res.getStatus()}`);
  }
}
