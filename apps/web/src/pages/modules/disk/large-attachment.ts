import { formatFileSize } from '@mailwing/shared';
import { compose } from '../../../state/compose';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A disk file sent as a large attachment (超大附件): a link block at the end of the
 * mail's body, so the recipient downloads it through the share link and the mail stays small.
 */
export function addLargeAttachment(label: string, file: { name: string; size: number }, url: string): void {
  const s = compose.get();
  const block = `<p data-large-attachment="1">${esc(label)}: <a href="${esc(url)}">${esc(file.name)}</a> (${formatFileSize(file.size)})</p>`;
  compose.edit({ html: `${s.html}${block}`, text: `${s.text}\n${label}: ${file.name} (${formatFileSize(file.size)}) ${url}` });
}
