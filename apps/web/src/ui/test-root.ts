import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

// For jsdom tests only: a React root on a fresh element of document.body for each test,
// unmounted and removed after it, with act() checking that updates are wrapped.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Registers the per-test set-up; read `root` and `host` inside tests and hooks. */
export function useTestRoot(): { readonly root: Root; readonly host: HTMLElement } {
  const current = {} as { root: Root; host: HTMLElement };
  beforeEach(() => {
    current.host = document.createElement('div');
    document.body.appendChild(current.host);
    current.root = createRoot(current.host);
  });
  afterEach(() => {
    act(() => current.root.unmount());
    current.host.remove();
  });
  return current;
}
