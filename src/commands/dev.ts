// `reflist dev`: builds, serves the tree and the select2 demo on one port,
// and rebuilds when a source changes. The served tree changes only by a
// successful build's swap, so after a broken edit the last good tree stays.
import { existsSync, watch } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild'; // esbuild itself is imported only when the demo asks for React
import { build, type BuildReport } from '../build.js';
import { toUrl } from '../client/request.js';
import { errorLines, ReflistError, ReflistErrors } from '../errors.js';
import { packageFile } from '../root.js';
import { createProgress, type Io } from '../progress.js';
import { compatHandler, fileHandler, listen, readRawRequestLines, safeFile, sendJson, type Handler } from './serve.js';
import { sourceFiles } from '../config/declaration.js';
import { CONFIG_FILE, loadDeclaration } from '../config/load.js';

export interface DevOptions {
  sources: string;
  config?: string;
  out: string;
  pageSize?: number;
  port: number;
  host: string;
}

/** A quiet time after the last change, so that an editor's burst of writes is one build. */
export const DEBOUNCE_MS = 250;

/** The package's demo/, the same relative place from src/dev.ts and from lib/cli.js. */
const DEMO = fileURLToPath(packageFile('demo/'));

/** The next save changes every answer: nothing may be cached, by a browser or a page's own select2. */
const NO_STORE = { 'cache-control': 'no-store' };

/** The demo's scripts: `/demo/vendor/<name>` → package, the version package-lock.json installs, file. */
export const VENDOR: ReadonlyMap<string, readonly [pkg: string, version: string, path: string]> = new Map([
  ['jquery.min.js', ['jquery', '3.8.0', 'dist/jquery.min.js']],
  ['select2.min.js', ['select2', '4.1.0', 'dist/js/select2.min.js']],
  ['select2.min.css', ['select2', '4.1.0', 'dist/css/select2.min.css']],
  ['tom-select.complete.min.js', ['tom-select', '2.6.2', 'dist/js/tom-select.complete.min.js']],
  ['tom-select.min.css', ['tom-select', '2.6.2', 'dist/css/tom-select.min.css']],
  ['choices.min.js', ['choices.js', '11.2.4', 'public/assets/scripts/choices.min.js']],
  ['choices.min.css', ['choices.js', '11.2.4', 'public/assets/styles/choices.min.css']],
] as const);

/** The demo's react-select drop-down: React has no browser build of its own, so the installed packages are bundled. */
export const REACT_VENDOR = 'react-select.js';

/** esbuild's options for demo/react-vendor.js: the installed React, react-dom, react-select and react-select-async-paginate, in one file. */
export const reactVendorBuild: BuildOptions & { write: false } = {
  entryPoints: [join(DEMO, 'react-vendor.js')], bundle: true, format: 'esm', target: 'es2022', minify: true,
  write: false, logLevel: 'silent', define: { 'process.env.NODE_ENV': '"production"' },
};

/**
 * The demo's react-select bundle (this repository's devDependencies, or a
 * project's own), or undefined when esbuild or one of the packages is not
 * installed: the demo then says so beside that drop-down.
 */
async function bundleReactVendor(): Promise<string | undefined> {
  try {
    const { build } = await import('esbuild');
    return (await build(reactVendorBuild)).outputFiles![0]!.text;
  } catch {
    return undefined;
  }
}

/** An installed package's folder; through its main file when its exports hide package.json (choices.js). */
function packageRoot(resolve: (id: string) => string, pkg: string): string {
  try {
    return dirname(resolve(`${pkg}/package.json`));
  } catch {
    for (let dir = dirname(resolve(pkg)); dir !== dirname(dir); dir = dirname(dir)) {
      if (basename(dir) === basename(pkg) && existsSync(join(dir, 'package.json'))) return dir;
    }
    throw new Error(`${pkg}: no package folder`);
  }
}

export type VendorSource = { root: string; path: string } | { redirect: string };

/**
 * Where each demo script comes from: the installed package (they are this
 * repository's devDependencies), else jsDelivr at the same version, for an
 * installed reflist that has no jQuery or select2 beside it.
 */
export function vendorSources(resolve: (id: string) => string): Map<string, VendorSource> {
  return new Map([...VENDOR].map(([name, [pkg, version, path]]): [string, VendorSource] => {
    try {
      return [name, { root: packageRoot(resolve, pkg), path }];
    } catch {
      return [name, { redirect: `https://cdn.jsdelivr.net/npm/${pkg}@${version}/${path}` }];
    }
  }));
}

export interface Builds {
  /** A source changed: build once no other change comes for the debounce time. */
  change(file: string): void;
  /** Builds now (the first build); resolves when it ends. */
  now(): Promise<void>;
  /** Stops scheduling and waits for a running build to end. */
  close(): Promise<void>;
}

/**
 * Turns change events into builds, never two at once: `run` gets the files
 * that changed since the last build (none for the first) and reports its own
 * errors. Changes while a build runs make exactly one more build after it.
 */
export function scheduleBuilds(run: (changed: string[]) => Promise<void>, delayMs: number): Builds {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  const start = (): Promise<void> => {
    const changed = [...pending].sort();
    pending = new Set();
    running = run(changed).finally(() => {
      running = undefined;
      // Changes that came during the build: build again, unless the quiet time has not passed yet (the timer will).
      if (pending.size > 0 && !timer && !closed) void start();
    });
    return running;
  };
  return {
    change(file) {
      if (closed) return;
      pending.add(file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        if (!running) void start();
      }, delayMs);
    },
    now: () => running ?? start(),
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** A failed build's errors as `reflist build` prints them; another failure with its stack (not the sources' fault: where it happened matters). */
const failureLines = (err: unknown): string[] =>
  err instanceof ReflistError || err instanceof ReflistErrors ? errorLines(err) : [String((err as Error)?.stack ?? err)];

function wrote(report: BuildReport): string {
  if (report.unchanged) return 'the tree is unchanged';
  return `wrote ${report.written} files${report.removed > 0 ? `, removed ${report.removed}` : ''}`;
}

/** `req` with its URL taken below `prefix` (`/demo/lookup/author.json` → `/author.json`), for a handler with its own root. */
function below(prefix: string, req: IncomingMessage): IncomingMessage {
  const url = toUrl(req.url ?? '/');
  req.url = url.pathname.slice(prefix.length) + url.search;
  return req;
}

/**
 * One port: the tree at `/` with the original URLs, the demo at `/demo/`
 * (its page and script, `lookup/` = the tree, `vendor/` = the widgets,
 * `widgets/` = the package's drop-down adapters, which take the client from
 * `tree/`). Until a tree exists, the tree's URLs answer 503 with the errors
 * of the build that failed.
 */
function devHandler(out: string, errors: () => string[]): Handler {
  const tree = compatHandler({ dir: out, headers: NO_STORE });
  const demo = fileHandler(DEMO, NO_STORE);
  const widgets = fileHandler(fileURLToPath(packageFile('lib/widgets/')), NO_STORE);
  const client = fileHandler(fileURLToPath(packageFile('lib/tree/')), NO_STORE);
  let react: Promise<string | undefined> | undefined; // bundled once, at the first page that asks
  const vendor = new Map([...vendorSources(createRequire(import.meta.url).resolve)].map(([name, source]) => [
    name,
    'redirect' in source ? source : { path: source.path, files: fileHandler(source.root, NO_STORE) },
  ]));
  const treeOr503: Handler = async (req, res) => {
    if (safeFile(out, 'lookup.json')) return tree(req, res);
    sendJson(res, req.method ?? 'GET', 503, { error: `no tree at ${out} yet`, errors: errors() }, NO_STORE);
  };
  return async (req, res) => {
    try {
      const { pathname, search } = toUrl(req.url ?? '/');
      if (pathname === '/demo') {
        res.writeHead(301, { location: `/demo/${search}`, ...NO_STORE });
        return void res.end();
      }
      // The tree has no page of its own at its root: a person opening the dev URL wants the demo.
      if (pathname === '/') {
        res.writeHead(302, { location: '/demo/', ...NO_STORE });
        return void res.end();
      }
      if (pathname.startsWith('/demo/lookup/')) return await treeOr503(below('/demo/lookup', req), res);
      if (pathname === `/demo/vendor/${REACT_VENDOR}`) {
        const script = await (react ??= bundleReactVendor());
        if (!script) return sendJson(res, req.method ?? 'GET', 404, { error: 'react, react-dom, react-select, react-select-async-paginate or esbuild is not installed' }, NO_STORE);
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...NO_STORE });
        return void res.end(req.method === 'HEAD' ? undefined : script);
      }
      if (pathname.startsWith('/demo/widgets/')) return await widgets(below('/demo/widgets', req), res);
      if (pathname === '/demo/tree/lookup-client.js') return await client(below('/demo/tree', req), res);
      if (pathname.startsWith('/demo/vendor/')) {
        const source = vendor.get(pathname.slice('/demo/vendor/'.length));
        if (!source) return sendJson(res, req.method ?? 'GET', 404, { error: `not found: ${pathname}` }, NO_STORE);
        if ('redirect' in source) {
          res.writeHead(302, { location: source.redirect, ...NO_STORE });
          return void res.end();
        }
        req.url = `/${source.path}`;
        return await source.files(req, res);
      }
      if (pathname.startsWith('/demo/')) return await demo(below('/demo', req), res);
      await treeOr503(req, res);
    } catch (err) {
      if (!res.headersSent) sendJson(res, 'GET', 500, { error: String(err) });
      else res.destroy();
    }
  };
}

/**
 * The files whose change may change the build: the config and the sources it
 * declares, or, while the config cannot be read, every CSV file. An editor's
 * `.#author.csv` lock or a note is none of them.
 */
function buildInputs(sources: string, config: string | undefined): (file: string) => boolean {
  const configName = config === undefined ? CONFIG_FILE : basename(config);
  try {
    const declared = new Set(sourceFiles(loadDeclaration(sources, config).declaration).map((s) => s.file));
    return (file) => file === configName || declared.has(file);
  } catch {
    return (file) => file === configName || (!file.startsWith('.') && file.endsWith('.csv'));
  }
}

/**
 * Builds `sources` into `out`, serves it with the demo, and rebuilds on every
 * change of a source file in `sources`, printing one line a build.
 */
export async function startDev(options: DevOptions, io: Io): Promise<{ url: string; close(): Promise<void> }> {
  const { sources, config, out, pageSize } = options;
  if (config === undefined && !existsSync(sources)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${sources}`);
  // The folder of the config and its sources (a missing --config is the first build's error).
  const watched = config === undefined ? sources : dirname(config);
  let isInput = buildInputs(sources, config);
  let errors: string[] = [];
  const run = async (changed: string[]) => {
    const first = changed.length === 0;
    isInput = buildInputs(sources, config);
    try {
      const report = await build({
        sources, config, out, pageSize,
        warn: (line: string) => io.stderr(`warning: ${line}\n`),
        ...(first && { log: (line: string) => io.stdout(line + '\n'), progress: createProgress(io.progress) }),
      });
      errors = [];
      const seconds = (report.ms / 1000).toFixed(2);
      io.stdout(first ? `built ${out} in ${seconds} s: ${wrote(report)}\n` : `rebuilt in ${seconds} s: ${changed.join(', ')} changed; ${wrote(report)}\n`);
    } catch (err) {
      // An output folder that is not a tree is refused by every build: no save can fix that, so dev stops.
      if (first && err instanceof ReflistError && err.code === 'UNSAFE_OUTPUT') throw err;
      errors = failureLines(err);
      for (const line of errors) io.stderr(line + '\n');
      io.stderr(safeFile(out, 'lookup.json') ? 'keeping the last good tree\n' : `no tree at ${out} yet: answering 503 until a build succeeds\n`);
    }
  };
  const builds = scheduleBuilds(run, DEBOUNCE_MS);
  // Watched before the first build, so that a save during it is built after it.
  const watcher = watch(watched, (_event, file) => {
    // Linux and macOS always name the file; elsewhere a change without a name may be a source's.
    if (file === null || isInput(file)) builds.change(file ?? 'a source');
  });
  watcher.on('error', (err) => io.stderr(`no longer watching ${watched}: ${err.message}\n`));
  try {
    await builds.now();
  } catch (err) {
    watcher.close();
    throw err;
  }

  const server = readRawRequestLines(createServer(devHandler(out, () => errors)));
  let port: number;
  try {
    port = await listen(server, options.port, options.host);
  } catch (err) {
    watcher.close();
    await builds.close();
    throw err;
  }
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/`;
  io.stdout(`serving ${out} at ${url} — the demo at ${url}demo/\n`);
  return {
    url,
    async close() {
      watcher.close();
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections(); // close() ends idle connections only: one still being answered would hold the exit
      await builds.close();
      await closed;
    },
  };
}
