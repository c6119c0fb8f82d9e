// Real temp folders, real builds, real servers: what the integration tests share.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTuned, type SearchTuning } from '../src/build.js';
import type { LookupClient, LookupClientOptions } from '../src/client/client.js';

/** A fresh folder under this test run's root (removed when the run ends). */
export function tempDir(name = 'reflist-'): string {
  return mkdtempSync(join(process.env['REFLIST_TEST_TMP'] ?? tmpdir(), name));
}

export function writeSources(dir: string, files: Record<string, string | Buffer>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true }); // a source may be in a folder below (data/a.csv)
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

export async function buildFrom(
  files: Record<string, string | Buffer>,
  out: string,
  pageSize = 30,
  search?: SearchTuning,
) {
  const sources = writeSources(tempDir('reflist-src-'), files);
  // Every list's records spilled to a file, as a list too large to hold has them: the path the largest lists take.
  return buildTuned({ sources, out, pageSize, search, spill: 0 });
}

/** Every file of a tree with its bytes, for byte-identical comparisons. */
export function snapshotTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(root, path), readFileSync(path).toString('base64'));
    }
  };
  walk(root);
  return files;
}

/**
 * A loopback port no one listens on, for a server that cannot bind port 0 and
 * say which it got (nginx, workerd, Deno). Two things could take it between
 * this check and the server's own bind, and neither can: a client socket
 * (the port is below the kernel's range for outgoing connections,
 * ip_local_port_range), and a server of another test file running at the same
 * time (each port is claimed by creating its file in the run's temp root with
 * O_EXCL, which succeeds in exactly one process).
 */
export async function freePort(): Promise<number> {
  const claims = join(tempRootOrOwn(), 'ports');
  mkdirSync(claims, { recursive: true });
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (Math.max(OUTGOING_PORTS_FROM, 20_000) - 10_000));
    try {
      closeSync(openSync(join(claims, String(port)), 'wx'));
    } catch {
      continue; // claimed by this run already
    }
    if (await canListen(port)) return port;
  }
}

/** The run's temp root, or outside a test run (a bench script) a folder of this process's own. */
let ownRoot: string | undefined;
const tempRootOrOwn = () =>
  process.env['REFLIST_TEST_TMP'] ?? (ownRoot ??= mkdtempSync(join(tmpdir(), 'reflist-ports-')));

const OUTGOING_PORTS_FROM = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface Running {
  url: string;
  stop(): Promise<void>;
  /** The server's process, for its memory (scripts/load.ts). */
  pid?: number;
}

/**
 * Resolves once the clock has passed every time of `mtimes` (ms), so that a
 * file written after it gets a newer mtime than any of them: what a test of
 * "rewrites exactly the changed files" waits for, rather than a fixed sleep.
 */
export async function pastMtimes(mtimes: Iterable<number>): Promise<void> {
  const newest = Math.max(0, ...mtimes);
  while (Date.now() <= newest + 1) await new Promise((r) => setTimeout(r, 1));
}

/**
 * `serve` (the npm static server) serving root on a loopback port it picks
 * itself (port 0), so no other process can take the port between a check and
 * the bind: the port is read from the line serve prints once it listens. A
 * serve that exits, or says nothing within 20 s, fails the test with what it
 * printed.
 */
export async function startServe(root: string): Promise<Running> {
  const bin = join(process.cwd(), 'node_modules/serve/build/main.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '-L', '-n', '--no-port-switching', '-l', 'tcp://127.0.0.1:0', root],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail('said nothing within 20 s'), 20_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`serve ${root}: ${why}\n${printed}`));
    }
    const read = (chunk: Buffer) => {
      printed += chunk;
      const port = /Accepting connections at http:\/\/127\.0\.0\.1:(\d+)/.exec(printed)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}/`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(`exited with ${code} before it listened`));
  });
  child.removeAllListeners('exit');
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** The lookup-client.js that a built tree carries, imported as a browser would. */
export async function treeClient(root: string, options: LookupClientOptions): Promise<LookupClient> {
  const mod = (await import(pathToFileURL(join(root, 'lookup-client.js')).href)) as {
    createLookupClient(o: LookupClientOptions): LookupClient;
  };
  return mod.createLookupClient(options);
}

/**
 * A whole nginx configuration that serves `tree` on a loopback port with the
 * tree's own nginx.conf included as docs/hosts.md says, everything nginx writes under `prefix`.
 */
export function nginxMainConf(prefix: string, tree: string, port: number): string {
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `    ${t}_temp_path ${join(prefix, t)};`)
    .join('\n');
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')};
events { worker_connections 1024; }
http {
    access_log off;
${temps}
    server {
        listen 127.0.0.1:${port};
        root ${tree};
        include ${join(tree, 'nginx.conf')};
    }
}
`;
}
