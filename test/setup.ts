// Every tree carries lib/lookup-client.js, so the bundle must be fresh before
// any test builds one: the property and end-to-end projects compile it, once
// a run. Temp folders of a run live under one root, removed at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's temp root, made by the first project's setup and shared by the others. */
export function tempRoot(): () => Promise<void> {
  if (process.env['REFLIST_TEST_TMP']) return async () => {};
  const root = mkdtempSync(join(tmpdir(), 'reflist-tests-'));
  process.env['REFLIST_TEST_TMP'] = root; // test workers are started after this and inherit it
  // Removed without blocking: the root holds every tree the run built, and a synchronous
  // rmSync here held vitest's event loop long enough that the timer watching the last
  // test file's worker fired as if the worker had not stopped ("Timeout terminating forks worker").
  return async () => {
    await rm(root, { recursive: true, force: true });
    delete process.env['REFLIST_TEST_TMP'];
  };
}

export default function setup(): () => Promise<void> {
  if (!process.env['REFLIST_TEST_COMPILED']) {
    execFileSync(process.execPath, ['scripts/compile.mjs'], { stdio: 'inherit' });
    process.env['REFLIST_TEST_COMPILED'] = '1';
  }
  return tempRoot();
}
