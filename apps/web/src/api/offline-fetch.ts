import { apiUrl } from './request';

// Issue 15: the offline cache's one network call (only api/ calls fetch, DESIGN.md). Loaded
// with the offline layer, after the first screen.

/** An attachment's bytes for the offline cache, or null when it could not be had. */
export async function fetchAttachmentBlob(id: string, token: string): Promise<Blob | null> {
  try {
    const response = await fetch(apiUrl('/attach/download', { id }, token), { credentials: 'omit' });
    return response.ok ? await response.blob() : null;
  } catch {
    return null;
  }
}
