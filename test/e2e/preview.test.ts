// npm run preview: the demo over a built tree, served by a child `serve`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { VALID } from '../fixtures/valid.js';
import { buildFrom, freePort, tempDir } from '../helpers.js';

test('stopped with SIGTERM, the preview leaves no server behind on its port', async () => {
  const tree = join(tempDir(), 'dist');
  await buildFrom(VALID, tree);
  const port = await freePort();
  const preview = spawn(
    join('node_modules', '.bin', 'tsx'),
    ['scripts/preview.ts', '--dir', tree, '--port', String(port)],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  // Polled here, not with scripts/preview.js's waitForServer: importing the script would load esbuild into this test's worker.
  await expect
    .poll(
      () =>
        fetch(url).then(
          () => 'answering',
          () => 'closed',
        ),
      { timeout: 20_000, interval: 100 },
    )
    .toBe('answering');
  expect((await fetch(url + 'lookup/lookup.json')).status).toBe(200);
  preview.kill('SIGTERM');
  await once(preview, 'exit');
  // The port is free again: whatever answered on it is gone.
  await expect
    .poll(
      () =>
        fetch(url).then(
          () => 'answering',
          () => 'closed',
        ),
      { timeout: 5_000 },
    )
    .toBe('closed');
}, 60_000);
