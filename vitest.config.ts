import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The projects are the folders: test/unit holds tests of pure modules that
// import src/ directly, with no browser, no server, no build of a whole tree
// and no lib/ (vitest compiles src/ on the fly), so `npm run test:unit` takes
// seconds; test/property checks random sources and declarations against the
// reference (`PROPERTY_RUNS=500` runs them longer); test/e2e runs the CLI,
// servers, hosts and browsers over real temp trees. The helpers they share
// sit in test/ itself.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A worker that ran a browser or servers can take more than the default 10 s to stop on a
    // busy 2-core machine; vitest then prints a "Timeout terminating … worker" error for nothing.
    teardownTimeout: 30_000,
    // Two files at a time even on a 2-core machine (vitest's default is CPUs − 1, so one):
    // most e2e files wait on a browser, a server or a child process for much of their time,
    // and the ports they take are claimed across processes (freePort in test/helpers.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        // Pure modules hold no state a test could leave behind: one module graph for all files saves loading src/ once a file.
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          globalSetup: ['test/setup-unit.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'property', include: ['test/property/**/*.test.ts'], globalSetup: ['test/setup.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/setup.ts'],
        },
      },
    ],
  },
});
