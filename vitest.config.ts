import { defineConfig } from 'vitest/config';

/**
 * The unit project: tests of pure modules that import src/ directly, with no
 * browser, no server, no build of a whole tree and no lib/ (vitest compiles
 * src/ on the fly), so `npm run test:unit` takes seconds. A test joins it by
 * its name here, one a line so that lists grown apart merge; any other
 * `*.test.ts` is end to end, so a new test runs with lib/ compiled until it
 * is listed.
 */
const UNIT = [
  'answer',
  'columns',
  'delta',
  'dev-router',
  'docs',
  'errors',
  'fit-measure',
  'host-routes',
  'hosts',
  'model',
  'paths',
  'plan',
  'progress',
  'rank',
  'readme',
  'reference',
  'reference-ranking',
  'request',
  'schedule',
  'tree-diff',
].map((name) => `test/${name}.test.ts`);

/**
 * Property tests: random sources or declarations checked against the
 * reference, and the reader over random bytes in chunks of any size (a
 * minute on its own); `PROPERTY_RUNS=500` runs them longer.
 */
const PROPERTY = ['test/**/*.property.test.ts', 'test/read.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A worker that ran a browser or servers can take more than the default 10 s to stop on a
    // busy 2-core machine; vitest then prints a "Timeout terminating … worker" error for nothing.
    teardownTimeout: 30_000,
    // vitest runs CPUs − 1 files at a time, so one on a 2-core machine. Two at a time
    // were measured. A clean run took 13 min 6 s instead of 15 min 29 s, and every test
    // passed. But vitest then printed a worker-termination timeout for
    // client.property.test.ts, so the default stays.
    projects: [
      {
        extends: true,
        // Pure modules hold no state a test could leave behind: one module graph for all files saves loading src/ once a file.
        test: { name: 'unit', include: UNIT, globalSetup: ['test/setup-unit.ts'], pool: 'threads', isolate: false },
      },
      { extends: true, test: { name: 'property', include: PROPERTY, globalSetup: ['test/setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...PROPERTY],
          globalSetup: ['test/setup.ts'],
        },
      },
    ],
  },
});
