// Every tree carries lib/lookup-client.js, so the bundle must be fresh before
// any test builds one. Temp folders of a run live under one root, removed at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  execFileSync(process.execPath, ['scripts/compile.mjs'], { stdio: 'inherit' });
  const root = mkdtempSync(join(tmpdir(), 'reflist-tests-'));
  process.env['REFLIST_TEST_TMP'] = root; // test workers are started after this and inherit it
  return () => rmSync(root, { recursive: true, force: true });
}
