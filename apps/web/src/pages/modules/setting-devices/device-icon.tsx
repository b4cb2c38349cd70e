// Line icons antd-mobile-icons lacks, in its 1em box and currentColor.
const box = { width: '1em', height: '1em', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

/** A phone or a computer. */
export function DeviceIcon({ mobile }: { mobile: boolean }) {
  return mobile ? (
    <svg {...box}><rect x="6.5" y="2.5" width="11" height="19" rx="2" /><path d="M10.5 18.5h3" /></svg>
  ) : (
    <svg {...box}><rect x="3" y="4" width="18" height="12" rx="1.5" /><path d="M8 20h8M12 16v4" /></svg>
  );
}

/** Nine dots joined by a stroke: the gesture lock. */
export function GestureIcon() {
  return (
    <svg {...box}>
      <path d="M5 5 12 12 19 5M12 12v7" />
      {[5, 12, 19].flatMap((y) => [5, 12, 19].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.3" fill="currentColor" />))}
    </svg>
  );
}
