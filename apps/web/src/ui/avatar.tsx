import { useState } from 'react';

/** A round avatar: the uploaded image, or the first letter of the name when there is none (or it fails to load). */
export function Avatar({ src, name, className = '' }: { src?: string | null; name: string; className?: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (src && broken !== src) {
    return <img className={`mw-avatar ${className}`} src={src} alt="" onError={() => setBroken(src)} />;
  }
  return <span className={`mw-avatar ${className}`} aria-hidden="true">{(name.trim() || '?').slice(0, 1).toUpperCase()}</span>;
}
