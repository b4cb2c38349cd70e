import { Component, lazy as reactLazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { SpinLoading } from 'antd-mobile';
import { CHUNK_LOAD_TIMEOUT_MS, PAGE_LOAD_DELAY_MS, PAGE_LOAD_TIMEOUT_MS } from '@mailwing/shared';
import { ErrorState } from './state-view';

// Spec §9's async page loading: a lazy page's chunk must arrive within 120 s, the
// spinner waits 200 ms (a fast load shows none), and a page still loading after
// 60 s, or whose chunk failed, offers a retry. A failed import() stays failed in the
// browser's module map, so the retry reloads the app (where the route is kept).
const retry = () => window.location.reload();

/** React.lazy, but a chunk that has not come within CHUNK_LOAD_TIMEOUT_MS fails (and so shows a retry). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound
export function lazy<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return reactLazy(() => Promise.race([
    load(),
    new Promise<never>((_, fail) => setTimeout(() => fail(new Error('chunk load timeout')), CHUNK_LOAD_TIMEOUT_MS)),
  ]));
}

/** A lazy page's fallback: nothing for 200 ms, then a spinner, then after 60 s a retry. */
export function PageLoading() {
  const [stage, setStage] = useState(0);
  useEffect(() => {
    const spin = setTimeout(() => setStage(1), PAGE_LOAD_DELAY_MS);
    const late = setTimeout(() => setStage(2), PAGE_LOAD_TIMEOUT_MS);
    return () => {
      clearTimeout(spin);
      clearTimeout(late);
    };
  }, []);
  if (stage === 2) return <ErrorState onRetry={retry} />;
  return stage === 1 ? <div className="mw-center mw-fill" data-testid="page-loading"><SpinLoading color="primary" /></div> : null;
}

/** Shows a retry instead of a blank page when a page's chunk fails (or times out) to load. */
export class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ErrorState onRetry={retry} /> : this.props.children;
  }
}
