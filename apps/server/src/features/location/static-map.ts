import { PNG } from 'pngjs';

// A small map picture of one place, drawn on the server from the configured raster tiles
// (issue 15 §6). It goes into the mail as an inline (cid:) part, so a recipient's reader
// shows it without loading anything from outside: no tracking by the tile server, and no
// "load remote images?" question for a map the sender meant to show.

export const TILE_SIZE = 256;

/** Web Mercator: the pixel at this latitude/longitude in the world map of this zoom. */
export function worldPixel(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const scale = TILE_SIZE * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return {
    x: ((lng + 180) / 360) * scale,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale,
  };
}

export interface TileRef { z: number; x: number; y: number; /** where its top-left corner lands in the picture */ dx: number; dy: number }

/** The tiles that cover a width × height picture centred on the place (x wraps round the world; rows off the map are left out). */
export function tilesFor(lat: number, lng: number, zoom: number, width: number, height: number): TileRef[] {
  const centre = worldPixel(lat, lng, zoom);
  const left = Math.round(centre.x - width / 2);
  const top = Math.round(centre.y - height / 2);
  const n = 2 ** zoom;
  const out: TileRef[] = [];
  for (let ty = Math.floor(top / TILE_SIZE); ty <= Math.floor((top + height - 1) / TILE_SIZE); ty++) {
    if (ty < 0 || ty >= n) continue;
    for (let tx = Math.floor(left / TILE_SIZE); tx <= Math.floor((left + width - 1) / TILE_SIZE); tx++) {
      out.push({ z: zoom, x: ((tx % n) + n) % n, y: ty, dx: tx * TILE_SIZE - left, dy: ty * TILE_SIZE - top });
    }
  }
  return out;
}

export function tileUrl(template: string, t: { z: number; x: number; y: number }): string {
  return template.replace('{z}', String(t.z)).replace('{x}', String(t.x)).replace('{y}', String(t.y)).replace('{r}', '');
}

/**
 * Puts the decoded tiles together, draws the pin in the middle and encodes a PNG.
 * A tile that is not a TILE_SIZE square PNG throws: the caller then sends no picture.
 */
export function drawMap(width: number, height: number, tiles: Array<{ ref: TileRef; png: Buffer }>): Buffer {
  const out = new PNG({ width, height });
  // Grey where no tile is (above and below the Mercator map).
  out.data.fill(0xdd);
  for (const { ref, png } of tiles) {
    const tile = PNG.sync.read(png);
    if (tile.width !== TILE_SIZE || tile.height !== TILE_SIZE) throw new Error(`tile is ${tile.width}×${tile.height}, not ${TILE_SIZE}²`);
    for (let y = Math.max(0, ref.dy); y < Math.min(height, ref.dy + TILE_SIZE); y++) {
      const from = ((y - ref.dy) * TILE_SIZE + Math.max(0, -ref.dx)) * 4;
      const x0 = Math.max(0, ref.dx);
      const x1 = Math.min(width, ref.dx + TILE_SIZE);
      tile.data.copy(out.data, (y * width + x0) * 4, from, from + (x1 - x0) * 4);
    }
  }
  drawPin(out, Math.round(width / 2), Math.round(height / 2), Math.max(8, Math.round(Math.min(width, height) / 24)));
  return PNG.sync.write(out, { colorType: 2 });
}

/** A red dot with a white ring and a thin dark edge: readable on any map colour. */
function drawPin(png: PNG, cx: number, cy: number, r: number): void {
  for (let y = cy - r - 2; y <= cy + r + 2; y++) {
    for (let x = cx - r - 2; x <= cx + r + 2; x++) {
      if (x < 0 || y < 0 || x >= png.width || y >= png.height) continue;
      const d = Math.hypot(x - cx, y - cy);
      const colour = d <= r * 0.6 ? [0xe5, 0x39, 0x35] : d <= r ? [0xff, 0xff, 0xff] : d <= r + 1.5 ? [0x33, 0x33, 0x33] : null;
      if (!colour) continue;
      const i = (y * png.width + x) * 4;
      png.data[i] = colour[0]!;
      png.data[i + 1] = colour[1]!;
      png.data[i + 2] = colour[2]!;
      png.data[i + 3] = 0xff;
    }
  }
}
