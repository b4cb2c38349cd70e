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

/** Two chat bubbles: WeChat (a mark, not its logo). */
export function WechatIcon() {
  return (
    <svg {...box}>
      <path d="M15.5 8.6C14.9 5.4 11.9 3 8.3 3 4.3 3 1 5.8 1 9.3c0 2 1.1 3.8 2.8 5l-.6 2.2 2.6-1.3c.8.3 1.6.4 2.5.5" />
      <path d="M16.2 9.2c3.7 0 6.8 2.5 6.8 5.6 0 1.7-.9 3.2-2.4 4.2l.5 1.9-2.2-1.1c-.9.3-1.8.4-2.7.4-3.7 0-6.8-2.4-6.8-5.4s3.1-5.6 6.8-5.6Z" />
    </svg>
  );
}
