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

/**
 * A paperclip: a mail has attachments (issue 15: the one sign for attachments, in
 * lists and in compose). antd-mobile-icons has none; its LinkOutline (a chain, 2 KB
 * of the first screen) read as "link".
 */
export function PaperclipIcon({ label }: { label?: string }) {
  return (
    <svg {...box} aria-hidden={label ? undefined : true} role={label ? 'img' : undefined} aria-label={label} strokeWidth={1.7} style={{ verticalAlign: '-0.125em' }}>
      <path d="M20.5 11.5 12 20a5.5 5.5 0 0 1-7.8-7.8l9.2-9.2a3.7 3.7 0 0 1 5.2 5.2l-9.2 9.2a1.8 1.8 0 0 1-2.6-2.6l8.5-8.5" />
    </svg>
  );
}

// One glyph per system folder (issue 15), by its mid (SystemFolder); custom folders get a folder.
const FOLDER_PATHS: Record<string, string> = {
  0: 'M3 13h5l1.5 3h5l1.5-3h5M5.5 5h13l2.5 8v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-6z',
  1: 'M21 3 10 14M21 3l-7 18-4-7-7-4z',
  2: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  3: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8',
  4: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  5: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14.5a6.5 6.5 0 0 1 3.5 5.5',
  6: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2',
};
const FOLDER_PATH = 'M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z';

/** A folder's icon: its own for each system folder, a folder for the user's. */
export function FolderIcon({ mid, className, style }: { mid: string; className?: string; style?: object }) {
  return (
    <svg {...box} strokeWidth={1.6} className={className} style={{ verticalAlign: '-0.125em', ...style }} data-folder-icon={mid in FOLDER_PATHS ? mid : 'custom'}>
      <path d={FOLDER_PATHS[mid] ?? FOLDER_PATH} />
    </svg>
  );
}
