import { useRef, type MouseEvent, type PointerEvent } from 'react';

/** How long a press must last to count as a long press (ms). */
export const LONG_PRESS_MS = 500;
// A finger that moves further than this is scrolling or swiping, not pressing.
const MOVE_TOLERANCE_PX = 10;

/**
 * Pointer handlers that call onLongPress after a still press, and swallow the
 * click that follows it (so the row does not also open). Without a callback
 * they do nothing.
 */
export function useLongPress(onLongPress: (() => void) | undefined) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);

  const cancel = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    start.current = null;
  };

  return {
    onPointerDown(e: PointerEvent) {
      fired.current = false;
      if (!onLongPress || (e.pointerType === 'mouse' && e.button !== 0)) return;
      start.current = { x: e.clientX, y: e.clientY };
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        fired.current = true;
        start.current = null;
        onLongPress();
      }, LONG_PRESS_MS);
    },
    onPointerMove(e: PointerEvent) {
      const s = start.current;
      if (s && Math.hypot(e.clientX - s.x, e.clientY - s.y) > MOVE_TOLERANCE_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerLeave: cancel,
    onContextMenu(e: MouseEvent) {
      // A phone's long press opens the browser's menu; the press is ours.
      if (onLongPress) e.preventDefault();
    },
    /** True once if the click being handled ends a long press. */
    consumeLongPress(): boolean {
      const was = fired.current;
      fired.current = false;
      return was;
    },
  };
}
