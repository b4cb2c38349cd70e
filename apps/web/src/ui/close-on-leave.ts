import { useEffect, useRef } from 'react';

interface Closable {
  close(): void;
}

/**
 * Imperative sheets (ActionSheet.show) live on document.body, outside the
 * route; without this one left open would stay over the next page after a
 * back gesture. Pass each handler to track(); leaving the page closes it. One
 * opened after the page was left (an upload failing later) closes at once.
 */
export function useCloseOnLeave(): (handler: Closable) => void {
  const open = useRef<Closable | null>(null);
  const left = useRef(false);
  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
      open.current?.close();
    };
  }, []);
  return (handler) => {
    open.current?.close();
    open.current = handler;
    if (left.current) handler.close();
  };
}
