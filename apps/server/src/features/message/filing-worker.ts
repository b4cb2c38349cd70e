import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../../db/connect.js';
import { fileMail, type FilingBatch } from './filing.repository.js';

/** What filing-thread.ts sends: a batch to file. */
export interface FilingJob { id: number; batch: FilingBatch }
/** The answer: the new mail ids, or why not (the error's message, SQLSTATE and SMTP code). */
export interface FilingDone { id: number; ids?: number[]; error?: { message: string; code?: string; responseCode?: number } }
export interface FilingWorkerData { databaseUrl: string }

const { databaseUrl } = workerData as FilingWorkerData;
// One connection: batches run one after another; the second the ingest committer may send waits in the pool's queue and goes out as the first answers.
const opened = connect({ databaseUrl, dataDir: '', poolSize: 1, applicationName: 'mailwing filing' });

parentPort!.on('message', (job: FilingJob) => {
  // Structured cloning turns a Buffer into a plain Uint8Array; pg sends a Buffer as bytea.
  for (const b of job.batch.blobs) if (b.data) b.data = Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength);
  opened.then((h) => fileMail(h.db, job.batch)).then(
    (ids) => parentPort!.postMessage({ id: job.id, ids } satisfies FilingDone),
    (err: unknown) => {
      const e = err as { message?: string; code?: string; responseCode?: number };
      parentPort!.postMessage({ id: job.id, error: { message: e.message ?? String(err), code: e.code, responseCode: e.responseCode } } satisfies FilingDone);
    },
  );
});
