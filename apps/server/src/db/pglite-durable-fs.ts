import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/*
 * The embedded database's files, flushed to the disk when PostgreSQL asks (issue 13:
 * "250 only after the blob is fsynced and the rows are committed").
 *
 * PGlite starts PostgreSQL with fsync off (-F), and its emscripten NODEFS has no fsync of
 * its own, so a COMMIT reached the operating system and no further: a power cut could take
 * acknowledged mail, and a small mail's bytes live in its row (migration 035), so its
 * blob with it. With fsync on, PostgreSQL calls fsync exactly where it would on a disk of
 * its own: the WAL at each commit (wal_sync_method=fsync, since emscripten's fdatasync
 * is a stub that never reaches the stream), and the data files and directories at each
 * checkpoint, before older WAL is recycled. Each such call comes to the stream's fsync
 * below, which runs the real one on the real file. A commit costs the database thread one
 * fsync, ~0.3 ms on the 2-core machine's disk; group commit shares it among a batch.
 */

/** PGlite's own start parameters, with fsync left on and the WAL flushed by fsync. */
export const DURABLE_START_PARAMS = [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync'];

/** The parts of emscripten's NODEFS this file touches (not in PGlite's types). */
interface NodeFsBackend {
  realPath(node: unknown): string;
  tryFSOperation<T>(f: () => T): T;
  stream_ops: { fsync?: (stream: { nfd?: number; node: unknown }) => number };
}

type InitArgs = Parameters<NodeFS['init']>;

export class DurableNodeFS extends NodeFS {
  override async init(pg: InitArgs[0], opts: InitArgs[1]): ReturnType<NodeFS['init']> {
    const out = await super.init(pg, opts);
    const flushing = (mod: { FS: { filesystems: { NODEFS: NodeFsBackend } } }): void => {
      const backend = mod.FS.filesystems.NODEFS;
      backend.stream_ops.fsync = (stream) => backend.tryFSOperation(() => {
        // A file has its own descriptor; a directory (a new WAL segment's or relation's entry) is opened to be flushed.
        if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
        else syncPath(backend.realPath(stream.node));
        return 0;
      });
    };
    const preRun = [...(out.emscriptenOpts.preRun ?? []), flushing] as typeof out.emscriptenOpts.preRun;
    return { emscriptenOpts: { ...out.emscriptenOpts, preRun } };
  }
}

function syncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
