// dev's build scheduler alone, on vitest's fake clock: saves in, builds out.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { scheduleBuilds } from '../../src/commands/schedule.js';

const QUIET_MS = 250;

/** A build that runs until the test ends it, and a record of the builds started and the most at once. */
function builds() {
  const runs: string[][] = [];
  const ends: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const scheduler = scheduleBuilds(async (changed) => {
    runs.push(changed);
    most = Math.max(most, ++running);
    await new Promise<void>((done) => ends.push(done));
    running--;
  }, QUIET_MS);
  /** Ends the build that runs, and lets the scheduler react. */
  const end = async () => {
    ends.shift()!();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { scheduler, runs, end, most: () => most };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('the first build starts at once, with no file named', async () => {
  const { scheduler, runs, end } = builds();
  const first = scheduler.now();
  expect(runs).toEqual([[]]);
  await end();
  await first;
});

test('a burst of saves within the quiet time is one build, naming each file once, in order', async () => {
  const { scheduler, runs, end } = builds();
  for (const file of ['state.csv', 'author.csv', 'state.csv']) {
    scheduler.change(file);
    await vi.advanceTimersByTimeAsync(QUIET_MS / 2);
  }
  expect(runs).toEqual([]);
  await vi.advanceTimersByTimeAsync(QUIET_MS);
  expect(runs).toEqual([['author.csv', 'state.csv']]);
  await end();
});

test('a burst of saves during a build gives one rebuild, after the running one ends', async () => {
  const { scheduler, runs, end, most } = builds();
  scheduler.change('author.csv');
  await vi.advanceTimersByTimeAsync(QUIET_MS);
  for (const file of ['state.csv', 'county.csv', 'state.csv']) scheduler.change(file);
  await vi.advanceTimersByTimeAsync(QUIET_MS * 4); // the quiet time passes while the build still runs
  expect(runs).toEqual([['author.csv']]);
  await end();
  expect(runs).toEqual([['author.csv'], ['county.csv', 'state.csv']]);
  await end();
  await vi.advanceTimersByTimeAsync(QUIET_MS * 4);
  expect(runs).toHaveLength(2);
  expect(most()).toBe(1);
});

test('a save during a build, still in its quiet time when the build ends, is built once the quiet time has passed', async () => {
  const { scheduler, runs, end } = builds();
  const first = scheduler.now();
  scheduler.change('author.csv');
  await end();
  await first;
  expect(runs).toEqual([[]]);
  await vi.advanceTimersByTimeAsync(QUIET_MS);
  expect(runs).toEqual([[], ['author.csv']]);
  await end();
});

test('close waits for the running build and builds no save after it', async () => {
  const { scheduler, runs, end } = builds();
  scheduler.now();
  scheduler.change('author.csv');
  let closed = false;
  const closing = scheduler.close().then(() => (closed = true));
  await vi.advanceTimersByTimeAsync(QUIET_MS);
  expect(closed).toBe(false);
  await end();
  await closing;
  scheduler.change('state.csv');
  await vi.advanceTimersByTimeAsync(QUIET_MS * 4);
  expect(runs).toEqual([[]]);
});
