import http from 'node:http';
import { PNG } from 'pngjs';
import { MAP_PORT } from './env';

// The tile server and geocoder of the location pages (issue 15 §6), on loopback: raster
// tiles as a tile server serves them (/tiles/{z}/{x}/{y}.png, 256 px PNG), and a
// Nominatim-compatible /search. It counts what it was asked, at /stats, so a test can tell
// that the browser (tiles) and the server (static map, search) really came here.

/** A light map-like tile: paper colour, "streets" every 64 px, a darker edge. */
function tile(): Buffer {
  const png = new PNG({ width: 256, height: 256 });
  for (let y = 0; y < 256; y++) {
    for (let x = 0; x < 256; x++) {
      const i = (y * 256 + x) * 4;
      const street = x % 64 < 4 || y % 64 < 4;
      const edge = x === 0 || y === 0;
      const [r, g, b] = edge ? [0xc8, 0xc4, 0xb8] : street ? [0xff, 0xff, 0xff] : [0xf2, 0xef, 0xe6];
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

export const MAP_PLACES: Record<string, Array<{ display_name: string; lat: string; lon: string }>> = {
  人民广场: [{ display_name: '人民广场, 黄浦区, 上海市, 中国', lat: '31.2304', lon: '121.4737' }],
  "people's square": [{ display_name: "People's Square, Huangpu, Shanghai, China", lat: '31.2304', lon: '121.4737' }],
};

export interface MapStats { tiles: number; searches: number; tileUserAgents: string[] }

export async function startMapStandIn(): Promise<http.Server> {
  const png = tile();
  const stats: MapStats = { tiles: 0, searches: 0, tileUserAgents: [] };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${MAP_PORT}`);
    if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(url.pathname)) {
      stats.tiles += 1;
      const ua = String(req.headers['user-agent'] ?? '');
      if (!stats.tileUserAgents.includes(ua) && stats.tileUserAgents.length < 10) stats.tileUserAgents.push(ua);
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(png);
      return;
    }
    if (url.pathname === '/search') {
      stats.searches += 1;
      const q = (url.searchParams.get('q') ?? '').trim().toLowerCase();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MAP_PLACES[q] ?? []));
      return;
    }
    if (url.pathname === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(MAP_PORT, '127.0.0.1', () => resolve());
  });
  return server;
}

export async function mapStats(): Promise<MapStats> {
  return (await fetch(`http://127.0.0.1:${MAP_PORT}/stats`)).json() as Promise<MapStats>;
}
