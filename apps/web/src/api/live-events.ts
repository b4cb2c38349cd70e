import type { MboxIndex } from '@mailwing/shared';
import { session } from '../state/session';
import { refreshMbox } from './endpoints';

// The live-update events, apart from the connection that receives them
// (live.ts, loaded after the first screen): lists subscribe here.

export type MailEventKind = 'new' | 'changed' | 'removed' | 'resync';

export type LiveEvent =
  /** Sent on every (re)connection; catchUp is true when it follows a gap (not the first connection). */
  | { type: 'hello'; mbox: MboxIndex; catchUp: boolean }
  | { type: 'mail'; kinds: MailEventKind[]; ids: string[]; folders: string[]; mbox: MboxIndex | null };

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();

/** Subscribes to live events; returns the unsubscribe function. */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Whether a list showing folder `mid` should reload for this event: the
 * folder changed, or the server lost track (resync), or a hello: every
 * (re)connection may have missed changes, and reloading is how we catch up
 * (the first one too, since the list may have loaded before the stream opened).
 */
export function affectsFolder(event: LiveEvent, mid: string): boolean {
  if (event.type === 'hello') return true;
  return event.kinds.includes('resync') || event.folders.includes(mid);
}

/** Hands an event to the session (counts, badge) and to every subscriber. */
export function publish(event: LiveEvent): void {
  // The session's counts drive the inbox badge and the folder lists.
  if (event.mbox) session.setMbox(event.mbox);
  else void refreshMbox();
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      console.warn('live listener failed', error);
    }
  }
}
