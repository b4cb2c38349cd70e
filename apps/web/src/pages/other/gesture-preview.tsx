import type { Pattern } from '../../state/gesture-pattern';

/** A small 3×3 of the points chosen so far, above the pad while confirming. */
export function GesturePreview({ pattern }: { pattern: Pattern }) {
  return (
    <div className="mw-gesture-preview" aria-hidden="true">
      {Array.from({ length: 9 }, (_, i) => <span key={i} className={pattern.includes(i) ? 'is-on' : ''} />)}
    </div>
  );
}
