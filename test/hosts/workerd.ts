// Cloudflare's own runtime, offline: workerd (the dev dependency wrangler's)
// serving a built tree's _worker.js with the binding ASSETS to a disk service
// over the tree, as Cloudflare Pages (advanced mode) and Workers with static
// assets run it. scripts/load.ts imports it too (as it does test/helpers.ts).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type Running } from '../helpers.js';

export interface RunningWorkerd extends Running {
  /** The disk service the worker's ASSETS binding reaches, on a port of its own: what the host itself answers for a file. */
  assetsUrl: string;
}

export const WORKERD = join(process.cwd(), 'node_modules/.bin/workerd');

/** A compatibility date workerd 2026-04-26 (wrangler 4.86.0's) supports. */
export const COMPATIBILITY_DATE = '2025-09-01';

/**
 * The capnp config: the worker (`_worker.js`, embedded from beside the config:
 * `embed` paths resolve relative to the config file) with ASSETS bound to a
 * read-only disk service over `tree` (an absolute, symlink-free path).
 */
export function workerdConfig(tree: string, port: number, assetsPort: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "assets", disk = (path = ${JSON.stringify(tree)}, writable = false)),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:${port}", http = (), service = "main"),
    (name = "assets", address = "127.0.0.1:${assetsPort}", http = (), service = "assets"),
  ],
);

const worker :Workerd.Worker = (
  modules = [(name = "_worker.js", esModule = embed "_worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  bindings = [(name = "ASSETS", service = "assets")],
);
`;
}

/**
 * workerd on a free loopback port serving `tree` (a built tree, or a symlink
 * to one) through the tree's own _worker.js. Resolves once it answers; stop()
 * kills it and removes its temp dir.
 */
export async function startWorkerd(tree: string, options: { timeoutMs?: number } = {}): Promise<RunningWorkerd> {
  const root = realpathSync(tree);
  const dir = mkdtempSync(join(process.env['REFLIST_TEST_TMP'] ?? tmpdir(), 'reflist-workerd-'));
  const [port, assetsPort] = await Promise.all([freePort(), freePort()]);
  copyFileSync(join(root, '_worker.js'), join(dir, '_worker.js'));
  const config = join(dir, 'config.capnp');
  writeFileSync(config, workerdConfig(root, port, assetsPort));
  const child = spawn(WORKERD, ['serve', config], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`workerd exited (${child.exitCode ?? child.signalCode}): ${stderr}`);
    }
    try {
      await (await fetch(url + 'lookup.json')).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`workerd did not answer on ${url}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { url, assetsUrl: `http://127.0.0.1:${assetsPort}/`, stop, pid: child.pid };
}
