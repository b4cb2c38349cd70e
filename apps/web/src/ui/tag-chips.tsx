import { chipTextColor, tagColor, useTags } from '../state/tags';

/** A tag as a chip: a pale tint of its colour with the name in a readable shade of it. */
export function TagChip({ name, color }: { name: string; color: string }) {
  return (
    <span className="mw-tag" style={{ color: chipTextColor(color), backgroundColor: `${color}24`, borderColor: `${color}66` }} data-tag={name}>
      {name}
    </span>
  );
}

/** The tags of a mail (names from the API) as coloured chips. */
export function TagChips({ names }: { names: readonly string[] }) {
  const tags = useTags();
  if (names.length === 0) return null;
  return (
    <span className="mw-tags">
      {names.map((name) => <TagChip key={name} name={name} color={tagColor(tags, name)} />)}
    </span>
  );
}

/** A round colour swatch. */
export function Swatch({ color, size = 14 }: { color: string; size?: number }) {
  return <span className="mw-swatch" style={{ backgroundColor: color, width: size, height: size }} aria-hidden="true" />;
}
