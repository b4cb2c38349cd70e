import './security.css';

interface Props<W extends string> {
  ways: ReadonlyArray<{ way: W; label: string }>;
  value: W;
  onChange: (way: W) => void;
  label: string;
}

/** A segmented switch between the ways to prove who you are; hidden when there is only one. */
export function WaySwitch<W extends string>({ ways, value, onChange, label }: Props<W>) {
  if (ways.length < 2) return null;
  return (
    <div className="mw-ways" role="tablist" aria-label={label} data-testid="way-switch">
      {ways.map(({ way, label: text }) => (
        <button
          key={way}
          type="button"
          role="tab"
          aria-selected={way === value}
          data-way={way}
          className={way === value ? 'mw-way is-on' : 'mw-way'}
          onClick={() => onChange(way)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
