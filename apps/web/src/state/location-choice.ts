import { formatCoordinate, type Place } from '@mailwing/shared';
import { compose } from './compose';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The /open-location route of a place. */
export function openLocationPath(place: Place): string {
  const q = new URLSearchParams({ lat: formatCoordinate(place.lat), lng: formatCoordinate(place.lng) });
  if (place.name) q.set('name', place.name);
  return `/open-location?${q}`;
}

/** The /open-location link of a place, on this app's own origin (hash route), for a mail's reader. */
export function openLocationUrl(place: Place, base = `${window.location.origin}${window.location.pathname}`): string {
  return `${base}#${openLocationPath(place)}`;
}

/**
 * A place added to the mail being written (issue 15 §6): a link to /open-location and, when
 * the server could draw one, the small map picture (an upload, sent as an inline cid: part),
 * with the tile provider's credit. Goes at the end of the body, as a disk link does.
 */
export function locationBlock(place: Place, opts: { label: string; url: string; imageUrl?: string; credit?: string }): { html: string; text: string } {
  const title = place.name || `${formatCoordinate(place.lat)}, ${formatCoordinate(place.lng)}`;
  const link = `<p data-location="1">${esc(opts.label)}: <a href="${esc(opts.url)}">${esc(title)}</a></p>`;
  const image = opts.imageUrl ? `<p><img src="${esc(opts.imageUrl)}" alt="${esc(title)}" width="300" height="150"></p>` : '';
  const credit = opts.imageUrl && opts.credit ? `<p>${esc(opts.credit)}</p>` : '';
  return { html: `${link}${image}${credit}`, text: `\n${opts.label}: ${title} ${opts.url}` };
}

export function addLocationToMail(block: { html: string; text: string }): void {
  const s = compose.get();
  compose.edit({ html: `${s.html}${block.html}`, text: `${s.text}${block.text}` });
}
