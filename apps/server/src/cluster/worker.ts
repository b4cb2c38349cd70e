import type { Config } from '../config.js';

/** What a worker process tells the cluster primary once its HTTP and SMTP servers listen. */
export interface ReadyMessage { mailwing: 'ready'; http: number; smtp: number }

export function isReadyMessage(m: unknown): m is ReadyMessage {
  return typeof m === 'object' && m !== null && (m as { mailwing?: unknown }).mailwing === 'ready';
}

export function announceReady(ports: { httpPort: number; smtpPort: number }): void {
  const m: ReadyMessage = { mailwing: 'ready', http: ports.httpPort, smtp: ports.smtpPort };
  process.send?.(m);
}

/**
 * The config one of `processes` workers runs with. The per-IP SMTP caps count in memory, so
 * each process gets its share (rounded up) and the settings keep meaning "per machine": the
 * primary hands new connections to the workers in turn, so a busy client's sessions spread about evenly.
 */
export function workerConfig(config: Config): Config {
  const share = (n: number) => Math.max(1, Math.ceil(n / config.processes));
  return {
    ...config,
    smtpLimits: {
      ...config.smtpLimits,
      maxConnectionsPerIp: share(config.smtpLimits.maxConnectionsPerIp),
      connectionsPerMinutePerIp: share(config.smtpLimits.connectionsPerMinutePerIp),
    },
  };
}
