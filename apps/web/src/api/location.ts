import type { LocationConfig, PlaceList, UploadResult } from '@mailwing/shared';
import { request } from './request';

// The location pages (issue 15 §6): where the map's tiles come from, place search, and the
// static map picture a mail carries (drawn by the server, kept as the writer's upload).
export const locationApi = {
  /** Public: /open-location works for a reader without a session. */
  config: () => request<LocationConfig>('/location/config', { loading: false }),
  search: (q: string, lang: string) => request<PlaceList>('/location/search', { data: { q, lang } }),
  staticMap: (place: { lat: number; lng: number; name: string; zoom: number }) =>
    request<UploadResult>('/location/static-map', { method: 'POST', data: place }),
};
