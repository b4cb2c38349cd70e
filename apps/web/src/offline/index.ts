import type { Params } from '../api/request';
import { session } from '../state/session';
import { recall, remember } from './cache';
import { queueAction, replaying } from './queue';

// Issue 15, scope 3: the one entry request.ts loads (lazily): keeping and recalling reads,
// and queueing actions, for the mailbox whose token made the call.

const KEPT = new Set(['/mbox/index', '/mail/list', '/read/index', '/signature/default']);
/** Answered from what is kept, never kept themselves: a reply or forward of a kept mail. */
const ANSWERED = new Set(['/write/load']);
/** Actions that wait in the queue offline (issue 15: read, star, move, delete). */
const QUEUED = new Set(['/mailop/read', '/mailop/star', '/mailop/move', '/mailop/delete']);

/**
 * With `value`: keeps a successful GET's answer. Without: the network failed, so answers
 * from what is kept (a read) or queues the action; undefined when it cannot.
 */
export async function kept(path: string, data: Params | undefined, token: string, value?: unknown): Promise<unknown> {
  const s = session.get();
  // A call made before a switch or logout belongs to no one now.
  if (!token || token !== s.token || !s.currentEmailName) return undefined;
  const email = s.currentEmailName;
  // A bound mailbox's own token (request's `token` option) is not the session's: nothing kept.
  if (QUEUED.has(path)) return value === undefined && !replaying() ? queueAction(email, path, (data ?? {}) as Record<string, string | number | boolean>) : undefined;
  if (ANSWERED.has(path)) return value === undefined ? recall(path, data, email) : undefined;
  if (!KEPT.has(path)) return undefined;
  return value === undefined ? recall(path, data, email) : remember(path, data, value, email);
}
