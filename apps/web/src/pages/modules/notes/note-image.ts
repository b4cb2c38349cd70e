// A note's images live inside it as data: URLs (so a locked note's images are encrypted
// with it). Photos are shrunk first: a phone picture is megabytes, a note holds 1.5 MB.
const MAX_SIDE = 1280;
export const NOTE_IMAGE_MAX_BYTES = 400 * 1024;

function load(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => { URL.revokeObjectURL(url); resolve(img); };
    img.onerror = () => { URL.revokeObjectURL(url); reject(new Error('not an image')); };
    img.src = url;
  });
}

/** The image as a data: URL of at most NOTE_IMAGE_MAX_BYTES, or null when it cannot be made that small. */
export async function noteImage(file: File): Promise<string | null> {
  const img = await load(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
  canvas.getContext('2d')?.drawImage(img, 0, 0, canvas.width, canvas.height);
  for (const quality of [0.82, 0.6, 0.4]) {
    const url = canvas.toDataURL(file.type === 'image/png' && quality === 0.82 ? 'image/png' : 'image/jpeg', quality);
    if (url.length * 0.75 <= NOTE_IMAGE_MAX_BYTES) return url;
  }
  return null;
}

/**
 * A decrypted note's HTML before it reaches the editor: the server could not sanitise it,
 * so images that would be fetched from anywhere (a beacon) go here; the editor's schema
 * drops scripts, handlers and unknown markup itself.
 */
export function onlyInlineImages(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('img').forEach((img) => {
    if (!/^data:image\/(png|jpe?g|gif|webp);/i.test(img.getAttribute('src') ?? '')) img.remove();
  });
  return doc.body.innerHTML;
}
