import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { extend, pointCentre, pointsAlong, type Pattern, type Point } from '../state/gesture-pattern';
import './security.css';

// The pad is drawn in a 300×300 box and scaled to its width.
const VIEW = 300;
const RING = 28;
const DOT = 9;
/** A finger within this distance of a point's centre touches it. */
const HIT = 34;
const CENTRES = Array.from({ length: 9 }, (_, i) => pointCentre(i, VIEW));

interface Props {
  /** Called when the finger (or mouse) lifts, with the points in the order drawn. */
  onComplete: (pattern: Pattern) => void;
  /** Called when a new drawing starts, so the page can clear its message. */
  onStart?: () => void;
  /** Colours the finished drawing while it is still shown. */
  status?: 'idle' | 'error' | 'ok';
  disabled?: boolean;
  label: string;
}

/**
 * A 3×3 gesture pad driven by pointer events, so touch, mouse and pen all
 * draw; pointer capture keeps the moves coming when the finger leaves the pad.
 * The line follows the finger; points along the way are taken in order (see
 * gesture-pattern.ts for the jumped-over rule).
 */
export function PatternPad({ onComplete, onStart, status = 'idle', disabled, label }: Props) {
  const svgRef = useRef<SVGSVGElement>(null);
  const drawing = useRef(false);
  const last = useRef<Point | null>(null);
  const current = useRef<Pattern>([]);
  const clearTimer = useRef(0);
  const [pattern, setPattern] = useState<Pattern>([]);
  const [cursor, setCursor] = useState<Point | null>(null);

  useEffect(() => () => window.clearTimeout(clearTimer.current), []);

  const toView = (e: PointerEvent): Point => {
    const rect = svgRef.current!.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) * VIEW) / rect.width, y: ((e.clientY - rect.top) * VIEW) / rect.height };
  };

  const pass = (from: Point, to: Point) => {
    let next = current.current;
    for (const point of pointsAlong(from, to, VIEW, HIT)) next = extend(next, point);
    if (next !== current.current) {
      current.current = next;
      setPattern(next);
      navigator.vibrate?.(8);
    }
  };

  const down = (e: PointerEvent<SVGSVGElement>) => {
    if (disabled || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.preventDefault();
    window.clearTimeout(clearTimer.current);
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = true;
    current.current = [];
    setPattern([]);
    onStart?.();
    const at = toView(e);
    last.current = at;
    pass(at, at);
    setCursor(at);
  };

  const move = (e: PointerEvent<SVGSVGElement>) => {
    if (!drawing.current) return;
    const at = toView(e);
    pass(last.current ?? at, at);
    last.current = at;
    setCursor(at);
  };

  const up = () => {
    if (!drawing.current) return;
    drawing.current = false;
    setCursor(null);
    const drawn = current.current;
    if (drawn.length > 0) onComplete([...drawn]);
    // The finished drawing stays a moment, coloured by the page's verdict.
    clearTimer.current = window.setTimeout(() => {
      current.current = [];
      setPattern([]);
    }, 900);
  };

  const tail = pattern.length > 0 && cursor ? CENTRES[pattern[pattern.length - 1]!]! : null;
  return (
    <svg
      ref={svgRef}
      className={`mw-pad is-${status}${disabled ? ' is-disabled' : ''}`}
      viewBox={`0 0 ${VIEW} ${VIEW}`}
      role="img"
      aria-label={label}
      data-testid="pattern-pad"
      data-drawing={cursor ? 'true' : 'false'}
      aria-busy={disabled ? 'true' : 'false'}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onLostPointerCapture={up}
    >
      {pattern.length > 1 && (
        <polyline className="mw-pad-line" points={pattern.map((p) => `${CENTRES[p]!.x},${CENTRES[p]!.y}`).join(' ')} />
      )}
      {tail && cursor && <line className="mw-pad-line" x1={tail.x} y1={tail.y} x2={cursor.x} y2={cursor.y} />}
      {CENTRES.map((c, i) => {
        const on = pattern.includes(i);
        return (
          <g key={i} className={on ? 'mw-pad-point is-on' : 'mw-pad-point'}>
            <circle className="mw-pad-ring" cx={c.x} cy={c.y} r={RING} data-point={i} data-on={on ? 'true' : 'false'} />
            <circle className="mw-pad-dot" cx={c.x} cy={c.y} r={DOT} />
          </g>
        );
      })}
    </svg>
  );
}
