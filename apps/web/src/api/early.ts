// The first screen's API calls, started while the app's code is still downloading
// (issue 15, scope 2). index.html loads this tiny module on its own, beside the app's
// chunk; the app's request() takes these answers instead of asking again (early-take.ts).
//
// It must import nothing: any module it shared with the app would be bundled with the
// app's first-screen chunk, and this script would then wait for that download.
// So the few facts it needs are restated here, each checked against its owner by
// early.test.ts: the storage keys (state/session.ts), the Inbox's page size
// (PAGE_SIZE_DEFAULT) and the calls' exact URLs (api/endpoints.ts through apiUrl).
// A call that does not match is simply asked again by the app: nothing is lost.

interface EarlyCall { url: string; at: number; response: Promise<Response> }
declare global {
  interface Window { __mwEarly?: EarlyCall[] }
}

export const EARLY_PAGE_SIZE = 20;
/** Hash routes whose first screen is a folder's mail list (spec §2: the Inbox tab). */
export const EARLY_ROUTES = ['', '#', '#/', '#/pages/list-tab/index'];

function stored(key: string): string {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

/** The URLs the Inbox tab asks for first, for a signed-in visitor on http(s); none otherwise. */
export function earlyUrls(location: Pick<Location, 'protocol' | 'origin' | 'hash'>, token: string, folder: string): string[] {
  if (!token || !/^https?:$/.test(location.protocol)) return [];
  if (!EARLY_ROUTES.includes(location.hash.split('?')[0]!)) return [];
  const base = `${location.origin}/h5`;
  const t = encodeURIComponent(token);
  const mid = /^\d{1,15}$/.test(folder) ? folder : '0';
  return [
    `${base}/mail/list?mid=${mid}&page=1&size=${EARLY_PAGE_SIZE}&view=auto&t=${t}`,
    `${base}/mbox/index?t=${t}`,
    `${base}/setting/index?t=${t}`,
  ];
}

if (typeof window !== 'undefined' && !window.__mwEarly) {
  const at = Date.now();
  window.__mwEarly = earlyUrls(window.location, stored('token'), stored('currentFolder') || '0')
    .map((url) => {
      const response = fetch(url, { credentials: 'omit' });
      // Offline, nobody may take it: the app's own request reports the failure.
      response.catch(() => undefined);
      return { url, at, response };
    });
}
