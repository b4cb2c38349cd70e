import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * vitest's own order (failed, then longest, first), except that the DATA memory test
 * (smtp-data-memory.test.ts) goes first among its project's files. The server project's
 * files share one fork (isolate: false below) and that test takes full collections while
 * three 150 MB messages stream in; in a fork that already ran the other files each
 * collection walks more heap. Whole server project on PostgreSQL, load 7-11: it took 81 s
 * as it fell in the order, against 16-25 s in a fresh fork (when it sampled every 50 ms; it
 * now waits four times each collection's length between samples).
 */
class FreshForkFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const at = sorted.findIndex((f) => f.moduleId.endsWith('/smtp-data-memory.test.ts'));
    if (at < 0) return sorted;
    const [memory] = sorted.splice(at, 1);
    const projectStart = sorted.findIndex((f) => f.project.name === memory!.project.name);
    sorted.splice(projectStart < 0 ? sorted.length : projectStart, 0, memory!);
    return sorted;
  }
}

// One runner for the unit and integration suites. The e2e suite has its own config,
// because it needs a built client and a browser.
export default defineConfig({
  test: {
    sequence: { sequencer: FreshForkFirst },
    projects: [
      { test: { name: 'shared', include: ['packages/shared/test/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          // Each file boots its own database; forks keep PGlite instances apart.
          pool: 'forks',
          // One fork runs the files one after another and keeps its imported modules, instead
          // of a new process importing the whole server for every file: vitest puts 1 worker
          // on 2 cores, and between two files it spent ~9 s (PGlite) / ~4.5 s (PostgreSQL)
          // under CI-like load. Measured on 14 sample files, one pass, load 7-10: PostgreSQL
          // 241 s -> 185 s, PGlite 302 s -> 276 s. Safe because each file still gets its own
          // data dir, database and runtime and stops them in afterAll, no test mocks or
          // stubs a module or global, and the modules' own state is only caches (heap after
          // each of the 14 files stayed 80-91 MB). The DATA memory test takes longer in a
          // used fork (its full collections walk a bigger heap), so it runs first.
          isolate: false,
          // Migrates and seeds once per run; each boot then copies that (test/db-template.ts).
          globalSetup: ['apps/server/test/template-setup.ts'],
          // The DATA memory test collects garbage before each sample (setting V8 flags at
          // run time instead is documented as unsafe, and crashed a fork on Node 24).
          execArgv: ['--expose-gc'],
          // Ceilings, not waits (no test sleeps to them): CI runs two suites side by side on
          // 2 cores, where booting a runtime with PGlite and 23 migrations can take 30 s.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
