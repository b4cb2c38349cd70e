import { defineConfig } from 'vitest/config';

// One runner for the unit and integration suites. The e2e suite has its own config,
// because it needs a built client and a browser.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['packages/shared/test/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          // Each file boots its own database; forks keep PGlite instances apart.
          pool: 'forks',
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
