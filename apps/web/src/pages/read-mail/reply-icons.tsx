// Reply, reply all, forward and "more" glyphs, drawn here: antd-mobile-icons has no reply
// arrows. Same 1em box and currentColor stroke as ui/icons.tsx.

const box = { width: '1em', height: '1em', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.7, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

export function ReplyIcon() {
  return <svg {...box}><path d="M9 7 4 12l5 5" /><path d="M4 12h10a6 6 0 0 1 6 6v1" /></svg>;
}

export function ReplyAllIcon() {
  return <svg {...box}><path d="M8 7 3 12l5 5" /><path d="M12 7l-5 5 5 5" /><path d="M7 12h8a6 6 0 0 1 6 6v1" /></svg>;
}

export function ForwardIcon() {
  return <svg {...box}><path d="M15 7l5 5-5 5" /><path d="M20 12H10a6 6 0 0 0-6 6v1" /></svg>;
}

export function MoreIcon() {
  return <svg {...box} fill="currentColor" stroke="none"><circle cx="5" cy="12" r="1.8" /><circle cx="12" cy="12" r="1.8" /><circle cx="19" cy="12" r="1.8" /></svg>;
}
