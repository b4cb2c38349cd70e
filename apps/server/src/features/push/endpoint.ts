import type { ReasonCode } from '@mailwing/shared';
import type { OutboundGuard } from '../../net/guarded-fetch.js';
import { OutboundRefused } from '../../net/ssrf.js';

export interface EndpointProblem { message: string; reason: ReasonCode }

/**
 * Why the server must not POST to this push endpoint, or null when it may. A
 * subscription is user input, so without this anyone could make the server send
 * requests into the private network (SSRF). Real push services are public https;
 * plain http only with the guard's test opt-out (PUSH_ALLOW_PRIVATE). Sending goes
 * through the same guard, which checks the address again as it connects.
 */
export async function endpointProblem(endpoint: string, guard: OutboundGuard): Promise<EndpointProblem | null> {
  const scheme = schemeProblem(endpoint, guard);
  if (scheme) return scheme;
  try {
    await guard.check(endpoint);
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    return err.reason === 'outbound.unresolvable'
      ? { message: 'is not reachable', reason: 'push.endpoint_unresolvable' }
      : { message: 'must be a public push service', reason: 'push.endpoint_private' };
  }
  return null;
}

/** The part of endpointProblem that needs no DNS: at send time the guard checks the address as it connects. */
export function schemeProblem(endpoint: string, guard: OutboundGuard): EndpointProblem | null {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return { message: 'is not a valid URL', reason: 'push.endpoint_invalid' };
  }
  if (u.protocol === 'https:' || (guard.allowPrivate && u.protocol === 'http:')) return null;
  return { message: 'must be an https URL of a push service', reason: 'push.endpoint_not_https' };
}
