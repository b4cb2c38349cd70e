import { splitHighlights } from './highlight';

/** Text with the search terms marked (<mark>); plain text when there are no terms. */
export function HighlightText({ text, terms }: { text: string; terms?: readonly string[] }) {
  if (!terms || terms.length === 0) return <>{text}</>;
  return (
    <>
      {splitHighlights(text, terms).map((part, i) => (part.hit ? <mark key={i} className="mw-hit">{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}
