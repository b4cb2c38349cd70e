import { z } from 'zod';

// The location pages (issue 15 §6): /choose-location picks a place, /open-location shows one.
// A place travels in a link as ?lat=&lng=&name=, so it is parsed here, once, for both apps.

export const Latitude = z.coerce.number({ error: 'must be a number' }).min(-85.0511, 'latitude out of range').max(85.0511, 'latitude out of range');
export const Longitude = z.coerce.number({ error: 'must be a number' }).min(-180, 'longitude out of range').max(180, 'longitude out of range');
/** Web Mercator zoom levels the pages and the static map use. */
export const MAP_MIN_ZOOM = 2;
export const MAP_MAX_ZOOM = 18;
export const MAP_DEFAULT_ZOOM = 15;
/** The static map in a mail: small, and twice as dense as it is shown. */
export const STATIC_MAP_WIDTH = 600;
export const STATIC_MAP_HEIGHT = 300;

export const Place = z.object({
  name: z.string().max(200),
  lat: z.number(),
  lng: z.number(),
});
export type Place = z.infer<typeof Place>;

export const LocationConfig = z.object({
  /** A Leaflet-style raster URL template with {z}, {x} and {y}. */
  tileUrl: z.string(),
  /** Who the tiles are from, shown on every map (the tile provider's licence asks for it). */
  attribution: z.string(),
  /** Whether place names can be searched (a geocoder is configured); coordinates always can. */
  search: z.boolean(),
  maxZoom: z.number().int(),
});
export type LocationConfig = z.infer<typeof LocationConfig>;

export const LocationSearchQuery = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(200),
  lang: z.string().max(35).regex(/^[A-Za-z-]*$/).optional(),
});
export const PlaceList = z.object({ places: z.array(Place) });
export type PlaceList = z.infer<typeof PlaceList>;

export const StaticMapInput = z.object({
  lat: Latitude,
  lng: Longitude,
  zoom: z.coerce.number().int().min(MAP_MIN_ZOOM).max(MAP_MAX_ZOOM).default(MAP_DEFAULT_ZOOM),
  name: z.string().trim().max(200).default(''),
});
export type StaticMapInput = z.infer<typeof StaticMapInput>;

/**
 * Coordinates as people type them: "31.2304, 121.4737", "31.2304 121.4737",
 * "31.2304°N 121.4737°E" or "33.86 S, 151.21 E". Latitude first, as maps print them.
 * Anything else (a place name) is null.
 */
export function parseCoordinates(text: string): { lat: number; lng: number } | null {
  const m = /^\s*([+-]?\d{1,2}(?:\.\d+)?)\s*°?\s*([NS])?\s*[,;\s]\s*([+-]?\d{1,3}(?:\.\d+)?)\s*°?\s*([EW])?\s*$/i.exec(text);
  if (!m) return null;
  let lat = Number(m[1]);
  let lng = Number(m[3]);
  if (m[2]?.toUpperCase() === 'S') lat = -Math.abs(lat);
  if (m[4]?.toUpperCase() === 'W') lng = -Math.abs(lng);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 85.0511 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

/** A place from /open-location's query (or null when lat/lng are missing or out of range). */
export function placeFromQuery(params: { get(name: string): string | null }): Place | null {
  const lat = Latitude.safeParse(params.get('lat') ?? '');
  const lng = Longitude.safeParse(params.get('lng') ?? '');
  if (!lat.success || !lng.success || params.get('lat') === '' || params.get('lng') === '') return null;
  return { lat: lat.data, lng: lng.data, name: (params.get('name') ?? '').slice(0, 200) };
}

/** Six decimals is about 10 cm: enough for a door, short enough for a link. */
export function formatCoordinate(value: number): string {
  return value.toFixed(6).replace(/\.?0+$/, '');
}
