// A few line icons drawn here rather than taken from antd-mobile-icons, whose
// path data costs about 1 KB each in the first-screen bundle (budget.test.ts).
// Same 1em box, stroke in currentColor, so they sit beside antd icons.

const box = { width: '1em', height: '1em', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

/** A magnifier: the way into search. */
export function SearchIcon() {
  return (
    <svg {...box} strokeWidth={1.8} style={{ verticalAlign: '-0.125em' }}>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5 20.5 20.5" />
    </svg>
  );
}

/** A box with a lid: archive (antd-mobile-icons has no archive glyph). */
export function ArchiveIcon() {
  return (
    <svg {...box} strokeWidth={1.6}>
      <rect x="3" y="4" width="18" height="5" rx="1" />
      <path d="M5 9v10a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V9M10 13h4" />
    </svg>
  );
}

/**
 * A gear: the Settings tab. antd-mobile-icons' SetOutline alone was 4 KB of
 * the first-screen budget; this one is a few hundred bytes.
 */
export function GearIcon() {
  return (
    <svg {...box} strokeWidth={1.5}>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 0 1 0 2.83 2 2 0 0 1-2.83 0l-.06-.06a1.65 1.65 0 0 0-1.82-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 0 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-1.82.33l-.06.06a2 2 0 0 1-2.83-2.83l.06-.06a1.65 1.65 0 0 0 .33-1.82 1.65 1.65 0 0 0-1.51-1H3a2 2 0 0 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 0 1 2.83-2.83l.06.06a1.65 1.65 0 0 0 1.82.33H9a1.65 1.65 0 0 0 1-1.51V3a2 2 0 0 1 4 0v.09a1.65 1.65 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 0 1 2.83 2.83l-.06.06a1.65 1.65 0 0 0-.33 1.82V9a1.65 1.65 0 0 0 1.51 1H21a2 2 0 0 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z" />
    </svg>
  );
}

/** A paperclip: a mail has attachments (issue 14: not antd's chain link, which reads as "link"). */
export function PaperclipIcon({ label }: { label?: string }) {
  return (
    <svg {...box} strokeWidth={1.8} aria-hidden={label ? undefined : true} aria-label={label} role={label ? 'img' : undefined} style={{ verticalAlign: '-0.125em' }}>
      <path d="M20.5 11.5 12.3 19.7a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.8-7.8" />
    </svg>
  );
}
