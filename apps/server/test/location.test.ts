import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCoordinates, placeFromQuery, type LocationConfig, type Mail, type MailList, type PlaceList, type UploadResult } from '@mailwing/shared';
import { tileTemplate, type MapConfig } from '../src/config.js';
import { tilesFor } from '../src/features/location/static-map.js';
import { startDemo, type TestServer } from './harness.js';

// The location pages' server side (issue 15 §6) against loopback stand-ins of the two third
// parties it talks to: a raster tile server (one PNG per z/x/y, counted) and a
// Nominatim-compatible geocoder. Nothing of ours is mocked.

const TILE_RGB = [0x4a, 0x90, 0xd9] as const;
function tilePng(): Buffer {
  const png = new PNG({ width: 256, height: 256 });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = TILE_RGB[0];
    png.data[i + 1] = TILE_RGB[1];
    png.data[i + 2] = TILE_RGB[2];
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

let standIn: http.Server;
let port = 0;
let connections = 0;
let tileRequests: Array<{ path: string; ua: string }> = [];
let searches: URLSearchParams[] = [];
let tileAnswer: 'png' | 'garbage' = 'png';
let s: TestServer;
let alice: string;
let bob: string;
let map: MapConfig;

beforeAll(async () => {
  const tile = tilePng();
  standIn = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname.startsWith('/tiles/')) {
      tileRequests.push({ path: url.pathname, ua: String(req.headers['user-agent'] ?? '') });
      if (tileAnswer === 'garbage') return void res.writeHead(200, { 'content-type': 'image/png' }).end('not a png');
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(tile);
    }
    if (url.pathname === '/search') {
      searches.push(url.searchParams);
      // Nominatim's jsonv2 answer: lat and lon are strings.
      const body = url.searchParams.get('q') === '外滩'
        ? [{ place_id: 1, display_name: '外滩, 黄浦区, 上海市, 中国', lat: '31.2400', lon: '121.4900' }, { display_name: 'no coordinates' }, { display_name: 'bad', lat: 'x', lon: '1' }]
        : [];
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    res.writeHead(404).end();
  });
  standIn.on('connection', () => { connections += 1; });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', () => resolve()));
  port = (standIn.address() as AddressInfo).port;
  map = { tileUrl: `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png`, tileOrigin: `http://127.0.0.1:${port}`, attribution: '© Test Tiles', geocoderUrl: `http://127.0.0.1:${port}/search` };
  // The stand-ins are on loopback, so the SSRF guard must be told (as an operator with an internal tile server would).
  ({ s, alice, bob } = await startDemo({ map, outbound: { allow: ['127.0.0.1/32'], dnsServers: [] } }));
});
afterAll(async () => {
  await s?.stop();
  standIn.closeAllConnections();
  await new Promise<void>((resolve) => standIn.close(() => resolve()));
});
beforeEach(() => {
  tileRequests = [];
  searches = [];
  connections = 0;
  tileAnswer = 'png';
});

async function png(id: string, token: string): Promise<PNG> {
  const res = await fetch(`${s.base}/h5/write/file?id=${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.headers.get('content-type')).toBe('image/png');
  return PNG.sync.read(Buffer.from(await res.arrayBuffer()));
}
const pixel = (p: PNG, x: number, y: number) => [...p.data.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 3)];

describe('map settings and the CSP', () => {
  it('serves the tile template without a session, for /open-location links opened by anyone', async () => {
    const r = await s.get<LocationConfig>('/h5/location/config');
    expect(r).toMatchObject({ code: 200, data: { tileUrl: map.tileUrl, attribution: '© Test Tiles', search: true } });
  });

  it('allows images from exactly the tile origin, and no other outside origin', async () => {
    const res = await fetch(`${s.base}/h5/location/config`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const img = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('img-src'));
    expect(img).toBe(`img-src 'self' data: blob: http://127.0.0.1:${port}`);
    // Scripts, connections and frames stay on our origin.
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
  });

  it('accepts only a tile template with one fixed host and {z}/{x}/{y}', () => {
    expect(tileTemplate('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual({ url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', origin: 'https://tile.openstreetmap.org' });
    expect(tileTemplate('http://127.0.0.1:8081/t/{z}/{x}/{y}.png?key=abc').origin).toBe('http://127.0.0.1:8081');
    expect(() => tileTemplate('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toThrow(/one host/);
    expect(() => tileTemplate('https://tiles.example.org/{z}/{x}.png')).toThrow(/\{y\}/);
    expect(() => tileTemplate('ftp://tiles.example.org/{z}/{x}/{y}.png')).toThrow(/http/);
    expect(() => tileTemplate("https://a.example;script-src*/{z}/{x}/{y}")).toThrow();
  });
});

describe('the static map in a mail', () => {
  it('draws the place from the tiles that cover it, with a pin in the middle', async () => {
    const r = await s.post<UploadResult>('/h5/location/static-map', { lat: 31.2304, lng: 121.4737, zoom: 15, name: '人民广场' }, alice);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ contentType: 'image/png', name: 'map.png' });
    const expected = tilesFor(31.2304, 121.4737, 15, 600, 300).map((t) => `/tiles/15/${t.x}/${t.y}.png`).sort();
    expect(tileRequests.map((t) => t.path).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(tileRequests[0]!.ua).toMatch(/^Mailwing\//);
    const picture = await png(r.data.id, alice);
    expect([picture.width, picture.height]).toEqual([600, 300]);
    expect(pixel(picture, 5, 5)).toEqual([...TILE_RGB]);
    expect(pixel(picture, 595, 295)).toEqual([...TILE_RGB]);
    // The pin: red in the centre.
    expect(pixel(picture, 300, 150)).toEqual([0xe5, 0x39, 0x35]);
    // It is alice's upload: bob cannot read it.
    const other = await fetch(`${s.base}/h5/write/file?id=${r.data.id}`, { headers: { authorization: `Bearer ${bob}` } });
    expect(((await other.json()) as { code: number }).code).toBe(404);
  });

  it('travels inside the mail as a cid: part, so the reader loads nothing from outside', async () => {
    const r = await s.post<UploadResult>('/h5/location/static-map', { lat: 39.9087, lng: 116.3975, name: '天安门' }, alice);
    const link = 'http://127.0.0.1/#/open-location?lat=39.9087&lng=116.3975&name=%E5%A4%A9%E5%AE%89%E9%97%A8';
    const html = `<p><a href="${link}">📍 天安门</a></p><p><img src="/h5/write/file?id=${r.data.id}&amp;t=${alice}" alt="天安门"></p>`;
    const sent = await s.post('/h5/write/send', { to: 'bob@demo.test', subject: 'Meet here', html }, alice);
    expect(sent.code).toBe(200);
    const got = (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 20 }, bob)).data.list.find((m) => m.subject === 'Meet here')!;
    const mail = (await s.get<Mail>('/h5/read/index', { mid: got.id }, bob)).data;
    expect(mail.html).toMatch(/\/h5\/read\/inline\?mid=\d+&amp;cid=/);
    expect(mail.html).not.toContain(`127.0.0.1:${port}`);
    expect(mail.html).toContain('open-location?lat=39.9087');
    const raw = (await s.rt.services.blobs.get((await s.rt.services.db.selectFrom('messages').select('blob_hash').where('id', '=', Number(got.id)).executeTakeFirstOrThrow()).blob_hash)).toString();
    expect(raw).toMatch(/src=(?:3D)?"cid:/);
    expect(raw).toContain('Content-Type: image/png');
    expect(raw).not.toContain(alice);
  });

  it('refuses a place off the map, and changes nothing', async () => {
    const bads: Array<Record<string, string | number>> = [{ lat: 95, lng: 0 }, { lat: 0, lng: 181 }, { lat: 'north', lng: 1 }, { lat: 1, lng: 1, zoom: 30 }];
    for (const bad of bads) {
      const r = await s.post('/h5/location/static-map', bad, alice);
      expect(r, JSON.stringify(bad)).toMatchObject({ code: 422 });
    }
    expect(tileRequests).toEqual([]);
  });

  it('says the map is unavailable when the tile server sends something that is not a PNG tile', async () => {
    tileAnswer = 'garbage';
    const r = await s.post('/h5/location/static-map', { lat: 1, lng: 1 }, alice);
    expect(r).toMatchObject({ code: 500, reason: 'location.map_unavailable' });
  });

  it('needs a session', async () => {
    const r = await s.post('/h5/location/static-map', { lat: 1, lng: 1 });
    expect(r.code).toBe(401);
    expect(tileRequests).toEqual([]);
  });
});

describe('place search (Nominatim-compatible geocoder)', () => {
  it('asks the geocoder and keeps only places with coordinates', async () => {
    const r = await s.get<PlaceList>('/h5/location/search', { q: '外滩', lang: 'zh' }, alice);
    expect(r).toMatchObject({ code: 200, data: { places: [{ name: '外滩, 黄浦区, 上海市, 中国', lat: 31.24, lng: 121.49 }] } });
    expect(searches).toHaveLength(1);
    expect(searches[0]!.get('format')).toBe('jsonv2');
    expect(searches[0]!.get('q')).toBe('外滩');
  });

  it('refuses an empty query without asking anyone', async () => {
    const r = await s.get('/h5/location/search', { q: '  ' }, alice);
    expect(r.code).toBe(422);
    expect(searches).toEqual([]);
  });
});

describe('coordinates in links and in the search box', () => {
  it('reads the usual ways of writing coordinates', () => {
    expect(parseCoordinates('31.2304, 121.4737')).toEqual({ lat: 31.2304, lng: 121.4737 });
    expect(parseCoordinates('31.2304 121.4737')).toEqual({ lat: 31.2304, lng: 121.4737 });
    expect(parseCoordinates('33.86° S, 151.21° E')).toEqual({ lat: -33.86, lng: 151.21 });
    expect(parseCoordinates('40.7128N 74.0060W')).toEqual({ lat: 40.7128, lng: -74.006 });
    expect(parseCoordinates('外滩')).toBeNull();
    expect(parseCoordinates('91, 10')).toBeNull();
  });
  it('reads a place from /open-location\'s query, and nothing from a bad one', () => {
    expect(placeFromQuery(new URLSearchParams('lat=31.2&lng=121.4&name=%E5%A4%96%E6%BB%A9'))).toEqual({ lat: 31.2, lng: 121.4, name: '外滩' });
    expect(placeFromQuery(new URLSearchParams('lat=&lng=121.4'))).toBeNull();
    expect(placeFromQuery(new URLSearchParams('lat=100&lng=1'))).toBeNull();
    expect(placeFromQuery(new URLSearchParams('lat=1e400&lng=1'))).toBeNull();
  });
});

// Last: these restart the server with other settings.
describe('settings that turn things off', () => {
  it('without a geocoder, search says to enter coordinates', async () => {
    await s.restart({ map: { ...map, geocoderUrl: undefined } });
    expect((await s.get<LocationConfig>('/h5/location/config')).data.search).toBe(false);
    const r = await s.get('/h5/location/search', { q: '外滩' }, alice);
    expect(r).toMatchObject({ code: 422, reason: 'location.search_off' });
    expect(connections).toBe(0);
  });

  it('the SSRF guard refuses a tile server on loopback unless the operator allowed it, without connecting', async () => {
    await s.restart({ map, outbound: { allow: [], dnsServers: [] } });
    const r = await s.post('/h5/location/static-map', { lat: 1, lng: 1 }, alice);
    expect(r).toMatchObject({ code: 403, reason: 'outbound.address_refused' });
    const q = await s.get('/h5/location/search', { q: '外滩' }, alice);
    expect(q).toMatchObject({ code: 403, reason: 'outbound.address_refused' });
    expect(connections).toBe(0);
  });
});
