import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `name` beside `base` (the caller's import.meta.url):
 * its .ts source when the caller runs from source, else the built .js.
 *
 * Running from TypeScript source (tsx, vitest), the worker must register tsx itself first.
 * Node 20 applies neither `--import` flags nor ESM hooks registered inside the worker
 * to its entry module in time, so it uses tsx's synchronous CommonJS hook.
 * `resourceLimits` sizes the thread's V8 heap (the filing thread caps its young generation).
 */
export function startThread(name: string, base: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const entry = new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData, resourceLimits });
  const tsxCjs = createRequire(import.meta.url).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsxCjs)}); require(${JSON.stringify(fileURLToPath(entry))});`, { eval: true, workerData, resourceLimits });
}
