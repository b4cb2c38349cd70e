import { useState } from 'react';

// Twelve colours that all carry white text; one per address, always the same one.
const COLOURS = ['#e5483f', '#e3742f', '#d4a017', '#1f9d55', '#13a8a8', '#2b6fd6', '#5b5fd6', '#9b4dca', '#c2185b', '#6d7f8c', '#3f8f6b', '#b5654a'];

/** The colour of an address (or a name when there is none): a small string hash, so a sender keeps it everywhere. */
export function avatarColour(key: string): string {
  let h = 0;
  for (const ch of key.trim().toLowerCase()) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return COLOURS[Math.abs(h) % COLOURS.length]!;
}

interface AvatarProps {
  /** The photo: a directory member's or the user's own; the initial shows when there is none or it fails. */
  src?: string | null;
  name: string;
  /** Decides the colour; the name is used when it is missing. */
  address?: string;
  className?: string;
}

/** The one avatar (issue 14): a photo, or the first letter of the name on a colour stable for the address. */
export function Avatar({ src, name, address, className = '' }: AvatarProps) {
  const [broken, setBroken] = useState<string | null>(null);
  if (src && broken !== src) {
    return <img className={`mw-avatar ${className}`} src={src} alt="" onError={() => setBroken(src)} />;
  }
  const key = address || name;
  return (
    <span className={`mw-avatar ${className}`} style={{ background: avatarColour(key) }} aria-hidden="true">
      {(name.trim() || address || '?').slice(0, 1).toUpperCase()}
    </span>
  );
}
