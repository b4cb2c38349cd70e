import { act } from 'react';
import { ActionSheet } from 'antd-mobile';
import { describe, expect, it } from 'vitest';
import { usePageLayer } from './page-layer';
import { useTestRoot } from './test-root';

// The real antd-mobile ActionSheet, with jsdom's own animation frames.
const t = useTestRoot();
let openSheet: () => void;

function PageWithSheet() {
  const [layer, openLayer] = usePageLayer();
  openSheet = () => openLayer((control) => <ActionSheet {...control} closeOnAction cancelText="Cancel" actions={[{ key: 'a', text: 'Archive' }]} />);
  return <div>{layer}</div>;
}

const sheet = () => document.querySelector('.adm-action-sheet');
const cancel = () => [...document.querySelectorAll<HTMLElement>('.adm-action-sheet-button-item')].find((b) => b.textContent === 'Cancel')!;
const frames = (n: number) => act(async () => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
});
/** Until the sheet has gone, or `limit` frames. */
async function gone(limit: number): Promise<boolean> {
  for (let i = 0; i < limit && sheet(); i += 1) await frames(1);
  return !sheet();
}

describe('a page layer', () => {
  it('opens, and closes with its animation', async () => {
    act(() => t.root.render(<PageWithSheet />));
    act(() => openSheet());
    await frames(30);
    expect(sheet()).not.toBeNull();
    act(() => cancel().click());
    expect(sheet()).not.toBeNull();
    expect(await gone(120)).toBe(true);
  });

  it('goes with the page at once', async () => {
    act(() => t.root.render(<PageWithSheet />));
    act(() => openSheet());
    await frames(2);
    act(() => t.root.render(<p>next page</p>));
    expect(sheet()).toBeNull();
  });

  it('is gone at once when closed before its opening animation drew a frame', async () => {
    act(() => t.root.render(<PageWithSheet />));
    act(() => openSheet());
    expect(sheet()).not.toBeNull();
    // The spring has not moved: a close now would never report its end.
    act(() => cancel().click());
    expect(sheet()).toBeNull();
    await frames(30);
    expect(sheet()).toBeNull();
  });

  it('shows one sheet at a time', async () => {
    act(() => t.root.render(<PageWithSheet />));
    act(() => openSheet());
    await frames(5);
    act(() => openSheet());
    await frames(5);
    expect(document.querySelectorAll('.adm-action-sheet')).toHaveLength(1);
  });
});
