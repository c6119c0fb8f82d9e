// `reflist dev`: builds, serves the tree and the drop-down demo on one port,
// and rebuilds when a source changes. The served tree changes only by a
// successful build's swap, so after a broken edit the last good tree stays.
// The parts: watch.ts (what changed), schedule.ts (when to build),
// dev-router.ts (what answers a URL), demo-vendor.ts (the demo's widgets).
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { build, type BuildOptions, type BuildReport } from '../build.js';
import { errorLines, ReflistError, ReflistErrors } from '../errors.js';
import { createProgress, type Io } from '../progress.js';
import { vendorSources, vendorWarnings } from './demo-vendor.js';
import { devHandler, hasTree } from './dev-router.js';
import { DEBOUNCE_MS, scheduleBuilds } from './schedule.js';
import { readRawRequestLines } from './request-lines.js';
import { listen } from './serve.js';
import { watchInputs } from './watch.js';

// What dev is made of, as its tests and the package's tests import it.
export { DEMO_PACKAGES, demoInstall, inRange, VENDOR, vendorSources, vendorWarnings } from './demo-vendor.js';
export { scheduleBuilds } from './schedule.js';

/** The build's options dev takes (its own `host` is where it listens), and where it listens. */
export interface DevOptions extends Pick<BuildOptions, 'sources' | 'config' | 'out' | 'pageSize'> {
  port: number;
  host: string;
}

/** A failed build's errors as `reflist build` prints them; another failure with its stack (not the sources' fault: where it happened matters). */
const failureLines = (err: unknown): string[] =>
  err instanceof ReflistError || err instanceof ReflistErrors
    ? errorLines(err)
    : [String((err as Error)?.stack ?? err)];

function wrote(report: BuildReport): string {
  if (report.unchanged) return 'the tree is unchanged';
  return `wrote ${report.written} files${report.removed > 0 ? `, removed ${report.removed}` : ''}`;
}

/**
 * One build of dev's, printing its line, or its errors and what is served
 * meanwhile; resolves with those errors (none after a good build) for the 503
 * page. `changed` is empty for the first build.
 */
async function devBuild({ sources, config, out, pageSize }: DevOptions, io: Io, changed: string[]): Promise<string[]> {
  const first = changed.length === 0;
  try {
    const report = await build({
      sources,
      config,
      out,
      pageSize,
      warn: (line: string) => io.stderr(`warning: ${line}\n`),
      ...(first && { log: (line: string) => io.stdout(line + '\n'), progress: createProgress(io.progress) }),
    });
    const seconds = (report.ms / 1000).toFixed(2);
    io.stdout(
      first
        ? `built ${out} in ${seconds} s: ${wrote(report)}\n`
        : `rebuilt in ${seconds} s: ${changed.join(', ')} changed; ${wrote(report)}\n`,
    );
    return [];
  } catch (err) {
    // An output folder that is not a tree, or one another build holds, is refused by every build: no save
    // can fix that, so dev stops. A full disk or a fault may pass: the next save builds again.
    if (first && err instanceof ReflistError && (err.code === 'NOT_A_TREE' || err.code === 'LOCKED')) throw err;
    const errors = failureLines(err);
    for (const line of errors) io.stderr(line + '\n');
    io.stderr(
      hasTree(out) ? 'keeping the last good tree\n' : `no tree at ${out} yet: answering 503 until a build succeeds\n`,
    );
    return errors;
  }
}

/**
 * Builds `sources` into `out`, serves it with the demo, and rebuilds on every
 * change of the config or a source it declares, printing one line a build.
 */
export async function startDev(options: DevOptions, io: Io): Promise<{ url: string; close(): Promise<void> }> {
  const { sources, config, out } = options;
  if (config === undefined && !existsSync(sources))
    throw new ReflistError('INVALID_OPTION', `--sources: no such folder ${sources}`);
  let errors: string[] = [];
  const watch = watchInputs(
    sources,
    config,
    (file) => builds.change(file),
    (folder, err) => io.stderr(`no longer watching ${folder}: ${err.message}\n`),
  );
  const builds = scheduleBuilds(async (changed) => {
    watch.refresh(); // before the build reads the inputs, so that a save during it is built after it
    errors = await devBuild(options, io, changed);
  }, DEBOUNCE_MS);
  try {
    await builds.now();
  } catch (err) {
    watch.close();
    throw err;
  }

  const vendor = vendorSources(createRequire(import.meta.url).resolve);
  for (const line of vendorWarnings(vendor)) io.stderr(`warning: ${line}\n`);
  const server = readRawRequestLines(
    createServer(devHandler({ out, hasTree: () => hasTree(out), errors: () => errors, vendor })),
  );
  let port: number;
  try {
    port = await listen(server, options.port, options.host);
  } catch (err) {
    watch.close();
    await builds.close();
    throw err;
  }
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/`;
  io.stdout(`serving ${out} at ${url} — the demo at ${url}demo/\n`);
  return {
    url,
    async close() {
      watch.close();
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections(); // close() ends idle connections only: one still being answered would hold the exit
      await builds.close();
      await closed;
    },
  };
}
