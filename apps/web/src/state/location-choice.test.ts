import { describe, expect, it } from 'vitest';
import { locationBlock, openLocationPath, openLocationUrl } from './location-choice';

describe('a place in a mail (issue 15 §6)', () => {
  const place = { lat: 31.2304, lng: 121.4737, name: '人民广场 <b>&"' };

  it('links to /open-location on our origin, hash route, with the name in the query', () => {
    expect(openLocationPath(place)).toBe('/open-location?lat=31.2304&lng=121.4737&name=%E4%BA%BA%E6%B0%91%E5%B9%BF%E5%9C%BA+%3Cb%3E%26%22');
    expect(openLocationUrl({ ...place, name: '' }, 'https://mail.acme.com/')).toBe('https://mail.acme.com/#/open-location?lat=31.2304&lng=121.4737');
  });

  it('escapes the name, and adds the map and its credit only when there is a picture', () => {
    const full = locationBlock(place, { label: 'Location', url: 'https://m/#/open-location?lat=1', imageUrl: '/h5/write/file?id=7&t=x', credit: 'Map: © OSM' });
    expect(full.html).toContain('人民广场 &#60;b&#62;&#38;&#34;</a>');
    expect(full.html).not.toContain('<b>');
    expect(full.html).toContain('<img src="/h5/write/file?id=7&#38;t=x"');
    expect(full.html).toContain('<p>Map: © OSM</p>');
    const bare = locationBlock({ ...place, name: '' }, { label: 'Location', url: 'https://m/#/x', credit: 'Map: © OSM' });
    expect(bare.html).not.toContain('<img');
    expect(bare.html).not.toContain('OSM');
    expect(bare.text).toBe('\nLocation: 31.2304, 121.4737 https://m/#/x');
  });
});
