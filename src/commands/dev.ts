// `reflist dev`: builds, serves the tree and the select2 demo on one port,
// and rebuilds when a source changes. The served tree changes only by a
// successful build's swap, so after a broken edit the last good tree stays.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild'; // esbuild itself is imported only when the demo asks for React
import { build, type BuildOptions as ReflistOptions, type BuildReport } from '../build.js';
import { toUrl } from '../client/request.js';
import { errorLines, ReflistError, ReflistErrors } from '../errors.js';
import { packageFile } from '../root.js';
import { createProgress, type Io } from '../progress.js';
import { compatHandler, fileHandler, listen, readRawRequestLines, safeFile, sendJson, type Handler } from './serve.js';
import { buildInputs, watchFolders } from './watch.js';

/** The build's options dev takes (its own `host` is where it listens), and where it listens. */
export interface DevOptions extends Pick<ReflistOptions, 'sources' | 'config' | 'out' | 'pageSize'> {
  port: number;
  host: string;
}

/** A quiet time after the last change, so that an editor's burst of writes is one build. */
export const DEBOUNCE_MS = 250;

/** The package's demo/, the same relative place from src/dev.ts and from lib/cli.js. */
const DEMO = fileURLToPath(packageFile('demo/'));

/** The next save changes every answer: nothing may be cached, by a browser or a page's own select2. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The widget packages the demo runs on: the versions it works with, as
 * `npm install --save-dev jquery@3` names them (select2 4.1 needs jQuery 3;
 * on jQuery 4 it stops at "isArray is not a function"), and the version
 * jsDelivr serves where none of them is installed, package-lock.json's.
 */
export const DEMO_PACKAGES: ReadonlyMap<string, readonly [range: string, pinned: string]> = new Map([
  ['jquery', ['3', '3.8.0']],
  ['select2', ['4.1', '4.1.0']],
  ['tom-select', ['2', '2.6.2']],
  ['choices.js', ['11', '11.2.4']],
] as const);

/** The demo's scripts: `/demo/vendor/<name>` → package, file. */
export const VENDOR: ReadonlyMap<string, readonly [pkg: string, path: string]> = new Map([
  ['jquery.min.js', ['jquery', 'dist/jquery.min.js']],
  ['select2.min.js', ['select2', 'dist/js/select2.min.js']],
  ['select2.min.css', ['select2', 'dist/css/select2.min.css']],
  ['tom-select.complete.min.js', ['tom-select', 'dist/js/tom-select.complete.min.js']],
  ['tom-select.min.css', ['tom-select', 'dist/css/tom-select.min.css']],
  ['choices.min.js', ['choices.js', 'public/assets/scripts/choices.min.js']],
  ['choices.min.css', ['choices.js', 'public/assets/styles/choices.min.css']],
] as const);

/** The command that installs demo packages at versions it works with: `npm install --save-dev jquery@3 select2@4.1`. */
export const demoInstall = (...pkgs: string[]): string =>
  `npm install --save-dev ${pkgs.map((pkg) => `${pkg}@${DEMO_PACKAGES.get(pkg)![0]}`).join(' ')}`;

/** Whether a version is in a range as npm reads `jquery@3`: 3.8.0 is, 4.0.0 is not. */
export const inRange = (version: string, range: string): boolean => version === range || version.startsWith(`${range}.`);

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

/** A demo script: an installed package's file, or jsDelivr's at the pinned version (with the version installed, if the demo does not work with it). */
export type VendorSource = { root: string; path: string } | { redirect: string; installed?: string };

/**
 * Where each demo script comes from: the installed package (they are this
 * repository's devDependencies) at a version the demo works with, else
 * jsDelivr at the pinned version, for an installed reflist that has no jQuery
 * or select2 beside it, or a jQuery 4.
 */
export function vendorSources(resolve: (id: string) => string): Map<string, VendorSource> {
  return new Map([...VENDOR].map(([name, [pkg, path]]): [string, VendorSource] => {
    const [range, pinned] = DEMO_PACKAGES.get(pkg)!;
    const redirect = `https://cdn.jsdelivr.net/npm/${pkg}@${pinned}/${path}`;
    let root: string;
    try {
      root = packageRoot(resolve, pkg);
    } catch {
      return [name, { redirect }];
    }
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    return [name, inRange(version, range) ? { root, path } : { redirect, installed: version }];
  }));
}

/** One line for each demo package installed at a version the demo does not work with. */
export function vendorWarnings(sources: ReadonlyMap<string, VendorSource>): string[] {
  const wrong = new Map([...sources].flatMap(([name, source]) => ('installed' in source && source.installed ? [[VENDOR.get(name)![0], source.installed]] : [])));
  return [...wrong].map(([pkg, version]) => {
    const [range, pinned] = DEMO_PACKAGES.get(pkg)!;
    return `the demo works with ${pkg} ${range}.x, not the installed ${version}: it takes ${pkg} ${pinned} from jsDelivr (${demoInstall(pkg)} to serve it offline)`;
  });
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
function devHandler(out: string, errors: () => string[], vendorScripts: ReadonlyMap<string, VendorSource>): Handler {
  const tree = compatHandler({ dir: out, headers: NO_STORE });
  const demo = fileHandler(DEMO, NO_STORE);
  const widgets = fileHandler(fileURLToPath(packageFile('lib/widgets/')), NO_STORE);
  const client = fileHandler(fileURLToPath(packageFile('lib/tree/')), NO_STORE);
  let react: Promise<string | undefined> | undefined; // bundled once, at the first page that asks
  const vendor = new Map([...vendorScripts].map(([name, source]) => [
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
 * Builds `sources` into `out`, serves it with the demo, and rebuilds on every
 * change of the config or a source it declares, printing one line a build.
 */
export async function startDev(options: DevOptions, io: Io): Promise<{ url: string; close(): Promise<void> }> {
  const { sources, config, out, pageSize } = options;
  if (config === undefined && !existsSync(sources)) throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${sources}`);
  // The folder of the config and its sources (a missing --config is the first build's error).
  const root = config === undefined ? sources : dirname(config);
  let inputs = buildInputs(sources, config);
  let folders = [''];
  let errors: string[] = [];
  const run = async (changed: string[]) => {
    const first = changed.length === 0;
    // Watched before the build reads them, so that a save during it is built after it.
    inputs = buildInputs(sources, config);
    watcher.watch((folders = inputs.folders ?? folders));
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
  const watcher = watchFolders(root, (file) => {
    // Linux and macOS always name the file; elsewhere a change without a name may be a source's.
    if (file === null || inputs.isInput(file)) builds.change(file ?? 'a source');
  }, (folder, err) => io.stderr(`no longer watching ${join(root, folder)}: ${err.message}\n`));
  try {
    await builds.now();
  } catch (err) {
    watcher.close();
    throw err;
  }

  const vendor = vendorSources(createRequire(import.meta.url).resolve);
  for (const line of vendorWarnings(vendor)) io.stderr(`warning: ${line}\n`);
  const server = readRawRequestLines(createServer(devHandler(out, () => errors, vendor)));
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
