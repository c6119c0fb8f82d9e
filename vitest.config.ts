import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A worker that ran a browser or servers can take more than the default 10 s to stop on a
    // busy 2-core machine; vitest then prints a "Timeout terminating … worker" error for nothing.
    teardownTimeout: 30_000,
  },
});
