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
