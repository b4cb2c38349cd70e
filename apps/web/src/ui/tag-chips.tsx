import { chipTextColor, tagColor, useTags } from '../state/tags';

/** A tag as a chip: a pale tint of its colour with the name in a readable shade of it. */
export function TagChip({ name, color }: { name: string; color: string }) {
  return (
    <span className="mw-tag" style={{ color: chipTextColor(color), backgroundColor: `${color}24`, borderColor: `${color}66` }} data-tag={name}>
      {name}
    </span>
  );
}

/** The tags of a mail (names from the API) as coloured chips; past `max`, a "+N" chip stands for the rest. */
export function TagChips({ names, max = Infinity }: { names: readonly string[]; max?: number }) {
  const tags = useTags();
  if (names.length === 0) return null;
  const shown = names.length > max ? names.slice(0, max) : names;
  const rest = names.length - shown.length;
  return (
    <span className="mw-tags">
      {shown.map((name) => <TagChip key={name} name={name} color={tagColor(tags, name)} />)}
      {rest > 0 && <span className="mw-tag mw-tag-more" title={names.slice(max).join(', ')}>+{rest}</span>}
    </span>
  );
}

/** A round colour swatch. */
export function Swatch({ color, size = 14 }: { color: string; size?: number }) {
  return <span className="mw-swatch" style={{ backgroundColor: color, width: size, height: size }} aria-hidden="true" />;
}
