// A built tree's Netlify edge function (_netlify/reflist.js) running in Deno,
// the runtime of Netlify's edge, behind test/hosts/netlify-harness.js: the
// function's routes, its pass-through to the static files and its own reads
// over real loopback HTTP. Offline: no remote or npm imports, no update check,
// a DENO_DIR of its own.
import { spawn } from 'node:child_process';
import { realpathSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir, type Running } from '../helpers.js';

/** The deno binary the `deno` dev dependency installs (DENO overrides it). */
export const DENO = process.env['DENO'] ?? fileURLToPath(new URL('../../node_modules/.bin/deno', import.meta.url));
export const NETLIFY_HARNESS = fileURLToPath(new URL('./netlify-harness.js', import.meta.url));

/** Flags that keep Deno from the network and from this repo's package.json and lock file. */
const OFFLINE = ['--no-remote', '--no-npm', '--no-config', '--no-lock', '--no-prompt'];

/**
 * The harness serving `tree` on a free loopback port (Deno picks it and prints
 * it), ready once it has answered a request. stop() ends the Deno process and
 * removes its DENO_DIR.
 */
export async function startNetlifyDeno(tree: string): Promise<Running> {
  const denoDir = tempDir('reflist-deno-');
  const real = realpathSync(tree); // Deno checks reads against the paths as given: allow both spellings
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DENO_DIR: denoDir,
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
    NO_COLOR: '1',
  };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'])
    delete env[name];
  env['NO_PROXY'] = env['no_proxy'] = '127.0.0.1,localhost';
  const child = spawn(
    DENO,
    [
      'run',
      ...OFFLINE,
      '--allow-net=127.0.0.1',
      `--allow-read=${[...new Set([tree, real])].join(',')}`,
      NETLIFY_HARNESS,
      tree,
      '0',
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(denoDir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the Netlify harness did not listen within 20 s: ${stderr}`)),
        20_000,
      );
      child.stdout!.on('data', (chunk) => {
        stdout += chunk;
        const line = /^\{"port":(\d+)\}$/m.exec(stdout);
        if (line) {
          clearTimeout(timer);
          resolve(Number(line[1]));
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the Netlify harness exited (${code ?? signal}): ${stderr}`));
      });
    });
    const url = `http://127.0.0.1:${port}/`;
    for (let i = 0; ; i++) {
      try {
        await (await fetch(url + 'lookup.json')).arrayBuffer();
        break;
      } catch (err) {
        if (i >= 100) throw new Error(`the Netlify harness did not answer on ${url}: ${String(err)} ${stderr}`);
        await new Promise((r) => setTimeout(r, 30));
      }
    }
    return { url, stop: cleanup, pid: child.pid };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
