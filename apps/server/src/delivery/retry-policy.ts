import type { DeliveryConfig } from '../config.js';

/**
 * When to try again after a temporary failure: exponential back-off from the base
 * (1, 2, 4, 8 … × base), capped, and no retries once the job is older than the
 * configured lifetime (4 days by default, the usual MTA queue lifetime).
 */
export function nextAttempt(cfg: Pick<DeliveryConfig, 'retryBaseMs' | 'retryMaxMs' | 'maxAgeMs'>, attempts: number, createdAt: Date, now = new Date()): Date | null {
  const delay = Math.min(cfg.retryBaseMs * 2 ** Math.max(0, attempts - 1), cfg.retryMaxMs);
  const at = new Date(now.getTime() + delay);
  return at.getTime() - createdAt.getTime() > cfg.maxAgeMs ? null : at;
}
