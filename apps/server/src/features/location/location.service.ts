import { APP_VERSION, Code, STATIC_MAP_HEIGHT, STATIC_MAP_WIDTH, type LocationConfig, type Place, type StaticMapInput, type UploadResult } from '@mailwing/shared';
import type { MapConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { OutboundGuard } from '../../net/guarded-fetch.js';
import { OutboundRefused } from '../../net/ssrf.js';
import type { UploadService } from '../compose/upload.service.js';
import { drawMap, tileUrl, tilesFor } from './static-map.js';

const TILE_MAX_BYTES = 1024 * 1024;
/** One deadline for all tiles of a picture (they are fetched side by side). */
const MAP_TIMEOUT_MS = 10_000;
const SEARCH_TIMEOUT_MS = 5_000;
const SEARCH_MAX_BYTES = 512 * 1024;
const SEARCH_LIMIT = 8;
// Tile and geocoder services ask to be told who is calling (e.g. the OSM tile and Nominatim usage policies).
const USER_AGENT = `Mailwing/${APP_VERSION} (self-hosted mail; location pages)`;

/**
 * The location pages' server side: what the map is drawn from, place search through a
 * Nominatim-compatible geocoder, and the static map picture a mail carries. Every outbound
 * request goes through the SSRF guard; the tile and geocoder addresses come from config, but
 * a redirect or a DNS answer could still point inside, so they are checked like any other.
 */
export class LocationService {
  constructor(private readonly cfg: MapConfig, private readonly guard: OutboundGuard, private readonly uploads: UploadService) {}

  config(): LocationConfig {
    return { tileUrl: this.cfg.tileUrl, attribution: this.cfg.attribution, search: this.cfg.geocoderUrl !== undefined, maxZoom: 19 };
  }

  async search(q: string, lang: string | undefined): Promise<Place[]> {
    if (!this.cfg.geocoderUrl) throw new AppError(Code.Invalid, { q: 'Searching by place name is not set up; enter coordinates' }, { reason: 'location.search_off', reasons: { q: 'location.search_off' } });
    const url = new URL(this.cfg.geocoderUrl);
    url.searchParams.set('q', q);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', String(SEARCH_LIMIT));
    let body: unknown;
    try {
      const res = await this.guard.fetch(url, {
        headers: { accept: 'application/json', 'user-agent': USER_AGENT, ...(lang ? { 'accept-language': lang } : {}) },
        timeoutMs: SEARCH_TIMEOUT_MS, maxBytes: SEARCH_MAX_BYTES, maxRedirects: 2,
      });
      if (res.status !== 200) throw new Error(`geocoder answered HTTP ${res.status}`);
      body = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      if (err instanceof OutboundRefused) throw err;
      throw new AppError(Code.Internal, 'Place search is not available right now', { reason: 'location.search_failed' });
    }
    // Nominatim's answer: [{ display_name, lat: "…", lon: "…" }, …]; anything else counts as no place.
    const places: Place[] = [];
    for (const item of Array.isArray(body) ? body.slice(0, SEARCH_LIMIT) : []) {
      if (!item || typeof item !== 'object') continue;
      const { display_name: name, lat, lon } = item as Record<string, unknown>;
      const la = Number(lat);
      const lo = Number(lon);
      if (typeof name !== 'string' || !Number.isFinite(la) || !Number.isFinite(lo) || Math.abs(la) > 90 || Math.abs(lo) > 180) continue;
      places.push({ name: name.slice(0, 200), lat: la, lng: lo });
    }
    return places;
  }

  /** Draws the place's map and keeps it as the caller's upload, for the mail's inline image. */
  async staticMap(userId: number, input: StaticMapInput): Promise<UploadResult> {
    const refs = tilesFor(input.lat, input.lng, input.zoom, STATIC_MAP_WIDTH, STATIC_MAP_HEIGHT);
    let png: Buffer;
    try {
      const tiles = await Promise.all(refs.map(async (ref) => {
        const res = await this.guard.fetch(tileUrl(this.cfg.tileUrl, ref), {
          headers: { accept: 'image/png', 'user-agent': USER_AGENT }, timeoutMs: MAP_TIMEOUT_MS, maxBytes: TILE_MAX_BYTES, maxRedirects: 2,
          wantBody: (status) => status === 200,
        });
        if (res.status !== 200) throw new Error(`tile server answered HTTP ${res.status}`);
        return { ref, png: res.body };
      }));
      png = drawMap(STATIC_MAP_WIDTH, STATIC_MAP_HEIGHT, tiles);
    } catch (err) {
      if (err instanceof OutboundRefused) throw err;
      throw new AppError(Code.Internal, 'The map could not be loaded', { reason: 'location.map_unavailable' });
    }
    return this.uploads.store(userId, { name: 'map.png', data: png });
  }
}
