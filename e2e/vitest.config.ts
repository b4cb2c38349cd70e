import { defineConfig } from 'vitest/config';

// The browser suite: one server, one file at a time, generous timeouts (a
// 2-core machine runs the server, Chromium and the tests together).
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
