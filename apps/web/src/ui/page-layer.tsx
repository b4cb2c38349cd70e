import { Fragment, useCallback, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';

/** What a layer's popup is given: antd-mobile's own visible / onClose / afterClose. */
export interface LayerControl {
  visible: boolean;
  onClose: () => void;
  afterClose: () => void;
}

type Render = (control: LayerControl) => ReactElement;

/**
 * A page's sheets and dialogs, rendered inside the page's own tree: leaving the
 * page unmounts them with it, at once. Render `layer` anywhere in the page and
 * call `open` with the popup (an ActionSheet, a Dialog) spread with the control.
 *
 * Why not ActionSheet.show / Dialog.show: those live in a root of their own on
 * document.body, and only their close animation's end removes them. Closed
 * before that animation's first frame (a back gesture just as the dialog
 * opens, a busy phone), react-spring never reports the rest and the popup's
 * last handler still reads "visible", so it stays mounted: an invisible mask
 * over the next page that swallows every tap.
 *
 * Opening another replaces the one shown. One opened after the page has gone
 * (an upload failing later) is never shown: the page's state is gone with it.
 */
export function usePageLayer(): [ReactNode, (render: Render) => void] {
  const [shown, setShown] = useState<{ id: number; phase: 'mounting' | 'open' | 'closing'; render: Render } | null>(null);
  const seq = useRef(0);
  const open = useCallback((render: Render) => {
    seq.current += 1;
    // Mounted hidden, then shown: the popup plays its opening animation.
    setShown({ id: seq.current, phase: 'mounting', render });
  }, []);

  const id = shown?.id;
  useEffect(() => {
    if (id !== undefined) setShown((s) => (s?.id === id && s.phase === 'mounting' ? { ...s, phase: 'open' } : s));
  }, [id]);

  // Whether the opening animation has drawn a frame. The popup's spring asked for its
  // first frame when it was shown, before this effect runs, so two frames on it has moved.
  const drawn = useRef(false);
  const phase = shown?.phase;
  useEffect(() => {
    drawn.current = false;
    if (phase !== 'open') return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => { drawn.current = true; });
    });
    return () => cancelAnimationFrame(frame);
  }, [id, phase]);

  if (!shown) return [null, open];
  const control: LayerControl = {
    visible: shown.phase === 'open',
    // Closed before a frame (a double tap on a busy phone): gone at once, as no close
    // animation would ever end (see above).
    onClose: () => setShown((s) => (s?.id !== shown.id ? s : drawn.current ? { ...s, phase: 'closing' } : null)),
    afterClose: () => setShown((s) => (s?.id === shown.id ? null : s)),
  };
  return [<Fragment key={shown.id}>{shown.render(control)}</Fragment>, open];
}
