// npm run preview -- [--port N] [--dir DIR]: the drop-down demo beside a built
// tree, served by `serve`. The demo is assembled in .preview/ (git-ignored) so
// that dist/ stays exactly what the build wrote:
//   .preview/index.html, demo.js      from demo/
//   .preview/vendor/                  jQuery, select2, Tom Select, Choices.js from node_modules, React bundled
//   .preview/widgets/, tree/          the drop-down adapters and the client they import, from lib/
//   .preview/lookup -> ../dist        the tree, lookup-client.js at its root
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { REACT_VENDOR, reactVendorBuild, VENDOR } from '../src/commands/demo-vendor.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVE = join(ROOT, 'node_modules/serve/build/main.js');
const DEMO_FILES = ['index.html', 'demo.js'];
const WIDGETS = ['react-select.js', 'tom-select.js', 'choices.js'];

/**
 * Fills `out` (emptied first) with the demo, its vendor scripts (React
 * bundled), the drop-down adapters with the client they import, and a
 * `lookup` link to `tree`: what `reflist dev` serves at /demo/.
 */
export function assemblePreview(tree: string, out: string): void {
  if (!existsSync(join(tree, 'lookup.json'))) {
    throw new Error(`no built tree at ${tree} (lookup.json is missing): run npm run build first`);
  }
  rmSync(out, { recursive: true, force: true }); // removes the old link, never what it points to
  for (const dir of ['vendor', 'widgets', 'tree']) mkdirSync(join(out, dir), { recursive: true });
  for (const name of DEMO_FILES) copyFileSync(join(ROOT, 'demo', name), join(out, name));
  for (const [name, [pkg, path]] of VENDOR)
    copyFileSync(join(ROOT, 'node_modules', pkg, path), join(out, 'vendor', name));
  writeFileSync(join(out, 'vendor', REACT_VENDOR), buildSync(reactVendorBuild).outputFiles![0]!.contents);
  for (const name of WIDGETS) copyFileSync(join(ROOT, 'lib/widgets', name), join(out, 'widgets', name));
  copyFileSync(join(ROOT, 'lib/tree/lookup-client.js'), join(out, 'tree/lookup-client.js'));
  // Relative, so the folder survives being moved with the project; 'junction' lets Windows link without admin rights.
  symlinkSync(
    relative(resolve(out), resolve(tree)),
    join(out, 'lookup'),
    process.platform === 'win32' ? 'junction' : 'dir',
  );
}

/** `serve` on 127.0.0.1:port over `dir`; --symlinks so it follows `lookup`. */
export function servePreview(dir: string, port: number, stdio: StdioOptions = 'inherit', quiet = false): ChildProcess {
  const args = [SERVE, '--symlinks', '-n', '--no-port-switching', '-l', `tcp://127.0.0.1:${port}`, dir];
  if (quiet) args.splice(1, 0, '-L');
  return spawn(process.execPath, args, { stdio });
}

/** Resolves when `url` answers, so callers can open the page right away. */
export async function waitForServer(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`, { cause: error });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export function run(argv: string[], stderr: (line: string) => void): ChildProcess | number {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string', default: '8090' }, dir: { type: 'string', default: 'dist' } },
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) {
    stderr(`--port: expected an integer from 1 to 65535, got "${values.port}"`);
    return 2;
  }
  try {
    assemblePreview(values.dir, join(ROOT, '.preview'));
  } catch (error) {
    stderr((error as Error).message);
    return 1;
  }
  // A tree keeps the client it was built with; the demo needs the current one.
  if (
    !readFileSync(join(values.dir, 'lookup-client.js')).equals(readFileSync(join(ROOT, 'lib/tree/lookup-client.js')))
  ) {
    stderr(
      `warning: ${join(values.dir, 'lookup-client.js')} differs from lib/tree/lookup-client.js (another build of the client): run npm run build to refresh it`,
    );
  }
  return servePreview(join(ROOT, '.preview'), port);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const result = run(process.argv.slice(2), (line) => console.error(line));
    if (typeof result === 'number') process.exitCode = result;
    else {
      // Stopped (Ctrl-C, or npm passing on a SIGTERM), the preview stops its server too: no child keeps the port.
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => result.kill(signal));
      result.on('exit', (code) => (process.exitCode = code ?? 0));
    }
  } catch (error) {
    console.error((error as Error).message); // parseArgs: an unknown option or a missing value
    process.exitCode = 2;
  }
}
