import { useState } from 'react';
import { AttachIcon } from './attach-icon';
import { previewKind, THUMB_MAX_BYTES } from './preview-kind';

/**
 * An attachment's tile (issue 14): an image shows itself, scaled down by the browser;
 * anything else, or an image too large to fetch for a tile, shows its type icon.
 *
 * Decided client-side from the file's own bytes rather than by a server thumbnailer:
 * the bytes come from the same sandboxed user-content route as the preview (an <img>
 * cannot run them), no native image decoder handles strangers' files on the server,
 * and the size cap keeps a list of photos from costing more than a few MB. The URL is
 * always ours: a thumbnail never loads remote content.
 */
export function AttachThumb({ name, size, src }: { name: string; size: number; src?: string | null }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (src && broken !== src && previewKind(name) === 'image' && size <= THUMB_MAX_BYTES) {
    return <img className="mw-attach-icon mw-attach-thumb" data-thumb="" src={src} alt="" loading="lazy" decoding="async" onError={() => setBroken(src)} />;
  }
  return <AttachIcon name={name} />;
}
