import { act, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, PAGE_LOAD_DELAY_MS, PAGE_LOAD_TIMEOUT_MS } from '@mailwing/shared';
import { setLanguage } from '../i18n';
import { lazy, PageBoundary, PageLoading } from './lazy-page';
import { useTestRoot } from './test-root';

// Spec §9 (issue 15): async page load delay 200 ms, page time-out 60 s, chunk time-out 120 s.
// The clock is vitest's fake one: no test waits for a deadline.
const t = useTestRoot();
beforeEach(() => {
  vi.useFakeTimers();
  setLanguage('en');
});
afterEach(() => {
  vi.useRealTimers();
});

const spinner = () => t.host.querySelector('[data-testid=page-loading]');
const retryButton = () => [...t.host.querySelectorAll('button')].find((b) => b.textContent === 'Retry');

describe('lazy page loading', () => {
  it('shows no spinner before 200 ms, a spinner after, and a retry after 60 s', async () => {
    act(() => t.root.render(<PageLoading />));
    await act(async () => vi.advanceTimersByTime(PAGE_LOAD_DELAY_MS - 1));
    expect(spinner()).toBeNull();
    expect(t.host.textContent).toBe('');
    await act(async () => vi.advanceTimersByTime(1));
    expect(spinner()).not.toBeNull();
    await act(async () => vi.advanceTimersByTime(PAGE_LOAD_TIMEOUT_MS - PAGE_LOAD_DELAY_MS));
    expect(spinner()).toBeNull();
    expect(retryButton()).toBeDefined();
  });

  it('fails a chunk that has not arrived within 120 s and offers a retry', async () => {
    const Never = lazy(() => new Promise<{ default: () => null }>(() => undefined));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    act(() => t.root.render(<PageBoundary><Suspense fallback={<span>waiting</span>}><Never /></Suspense></PageBoundary>));
    await act(async () => vi.advanceTimersByTime(CHUNK_LOAD_TIMEOUT_MS - 1));
    expect(t.host.textContent).toBe('waiting');
    await act(async () => vi.advanceTimersByTime(1));
    expect(retryButton()).toBeDefined();
  });

  it('shows a page whose chunk arrives in time', async () => {
    const Page = lazy(() => Promise.resolve({ default: () => <p>page</p> }));
    await act(async () => t.root.render(<PageBoundary><Suspense fallback={<PageLoading />}><Page /></Suspense></PageBoundary>));
    await act(async () => vi.advanceTimersByTime(10));
    expect(t.host.textContent).toBe('page');
  });
});
