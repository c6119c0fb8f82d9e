// `reflist dev` end to end: the real CLI as a child process, real saves into
// a real sources folder, real HTTP. Waits poll; nothing sleeps for a fixed time.
import { afterAll, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEMO_PACKAGES,
  demoInstall,
  inRange,
  scheduleBuilds,
  VENDOR,
  vendorSources,
  vendorWarnings,
} from '../../src/commands/dev.js';
import { buildInputs } from '../../src/commands/watch.js';
import { TreeWriter } from '../../src/write/write.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';
import { VALID } from '../fixtures/valid.js';
import { tempDir, writeSources } from '../helpers.js';

const CLI = fileURLToPath(new URL('../../lib/cli.js', import.meta.url));
/** Generous for a loaded 2-core machine: a rebuild of VALID takes a fraction of a second. */
const WAIT_MS = 10_000;

/** Polls `check` until it returns something truthy; fails with `what` and the process's output otherwise. */
async function until<T>(
  check: () => T | Promise<T>,
  what: () => string,
  timeoutMs = WAIT_MS,
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Dev {
  url: string;
  sources: string;
  stdout(): string;
  stderr(): string;
  /** Sends a signal and resolves with the exit code and how long the process took to exit. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

async function startDev(files: Record<string, string>): Promise<Dev> {
  const root = tempDir('reflist-dev-');
  const sources = writeSources(join(root, 'sources'), files);
  const child = spawn(
    process.execPath,
    [CLI, 'dev', '--sources', sources, '--out', join(root, 'dist'), '--port', '0', '--host', '127.0.0.1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => `\n--- stdout\n${stdout}--- stderr\n${stderr}`;
  const url = await until(
    () => / at (http:\/\/127\.0\.0\.1:\d+\/) — the demo at /.exec(stdout)?.[1],
    () => `the serving line${output()}`,
    30_000,
  ).catch((err) => {
    child.kill('SIGKILL'); // a process that never served is no test's to stop
    throw err;
  });
  return {
    url,
    sources,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal) {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const late = new Promise<never>((_, fail) =>
        setTimeout(() => fail(new Error(`no exit ${WAIT_MS} ms after ${signal}${output()}`)), WAIT_MS).unref(),
      );
      const code = await Promise.race([exited, late]);
      return { code, ms: Date.now() - started };
    },
  };
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

/** The texts a Term search answers. */
async function term(dev: Dev, list: string, text: string): Promise<string[]> {
  const res = await fetch(`${dev.url}${list}.json?Term=${encodeURIComponent(text)}`);
  const body = (await res.json()) as { items: { text: string }[] };
  return body.items.map((item) => item.text);
}

const rebuilds = (dev: Dev) => dev.stdout().match(/^rebuilt in .*$/gm) ?? [];

/**
 * The rebuild lines since `before`, once every change made so far is built: a
 * save that changes nothing (descriptor.csv rewritten as it is) is built after
 * them, so the lines up to its own are the whole story, with no fixed wait.
 */
async function rebuildsSince(dev: Dev, before: number): Promise<string[]> {
  await until(
    () => rebuilds(dev).length > before,
    () => `a rebuild${dev.stdout()}`,
  );
  writeSources(dev.sources, { 'descriptor.csv': VALID['descriptor.csv']! });
  const lines = await until(
    () => {
      const since = rebuilds(dev).slice(before);
      return since.at(-1)?.includes('descriptor.csv') && since;
    },
    () => `the descriptor.csv rebuild\n${dev.stdout()}`,
  );
  expect(lines.at(-1)).toMatch(/^rebuilt in \d+\.\d\d s: descriptor\.csv changed; the tree is unchanged$/);
  return lines.slice(0, -1);
}

describe('reflist dev', () => {
  let dev: Dev;
  beforeAll(async () => {
    // With its config: a folder without one that holds a CSV of notes would not be read as the lookup service.
    dev = await startDev({ ...VALID, 'reflist.config.json': JSON.stringify(LOOKUP_SERVICE_CONFIG) });
  });
  afterAll(async () => {
    await dev?.stop('SIGKILL');
  });

  test('serves the original URLs and the select2 demo on one port', async () => {
    expect(dev.stdout()).toMatch(/^built .*dist in \d+\.\d\d s: wrote \d+ files$/m);
    expect(await term(dev, 'author', 'smi')).toEqual(['Smith, John']);
    const demo = await get(dev.url + 'demo/');
    expect(demo.status).toBe(200);
    expect(demo.body).toContain('<script type="module" src="demo.js">');
    expect((await get(dev.url + 'demo')).status).toBe(301);
    const root = await fetch(dev.url, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/demo/']);
    const vendor = [
      'jquery.min.js',
      'select2.min.js',
      'select2.min.css',
      'tom-select.complete.min.js',
      'tom-select.min.css',
      'choices.min.js',
      'choices.min.css',
      'react-select.js',
    ];
    const widgets = ['widgets/react-select.js', 'widgets/tom-select.js', 'widgets/choices.js', 'tree/lookup-client.js'];
    for (const path of [
      'demo/demo.js',
      'demo/lookup/lookup-client.js',
      'demo/lookup/lookup.json',
      ...vendor.map((v) => `demo/vendor/${v}`),
      ...widgets.map((w) => `demo/${w}`),
    ]) {
      expect([path, (await get(dev.url + path)).status]).toEqual([path, 200]);
    }
  });

  test('answers nothing from outside the tree, the demo or the vendor packages', async () => {
    // demo/ lies in the package beside package.json; the sources beside dist/.
    for (const path of [
      'demo/..%2fpackage.json',
      'demo/%2e%2e/package.json',
      'demo/lookup/..%2fsources/author.csv',
      'demo/vendor/..%2fpackage.json',
      'demo/vendor/__proto__',
      '..%2fsources/author.csv',
      'demo/widgets/..%2f..%2fpackage.json',
      'demo/widgets/%2e%2e/cli.js',
      'demo/tree/_worker.js',
    ]) {
      expect([path, (await get(dev.url + path)).status]).toEqual([path, 404]);
    }
  });

  test('a saved edit is served within seconds, after one rebuild', async () => {
    const before = rebuilds(dev).length;
    writeSources(dev.sources, { 'author.csv': VALID['author.csv']!.replace('Smith, John', 'Smythe, Joan') });
    await until(
      async () => (await term(dev, 'author', 'smythe')).includes('Smythe, Joan'),
      () => `the edit${dev.stdout()}`,
    );
    expect(await rebuildsSince(dev, before)).toEqual([
      expect.stringMatching(/^rebuilt in \d+\.\d\d s: author\.csv changed; wrote \d+ files$/),
    ]);
  });

  test('a burst of five saves within 100 ms is one rebuild', async () => {
    const before = rebuilds(dev).length;
    for (let i = 1; i <= 5; i++) {
      writeSources(dev.sources, { 'author.csv': VALID['author.csv']!.replace('Smith, John', `Burst, Number ${i}`) });
      if (i < 5) await new Promise((r) => setTimeout(r, 20));
    }
    await until(
      async () => (await term(dev, 'author', 'burst')).includes('Burst, Number 5'),
      () => `the last save${dev.stdout()}`,
    );
    expect(await rebuildsSince(dev, before)).toEqual([expect.stringContaining(': author.csv changed; wrote')]);
  });

  test("files beside the sources that are none (an editor's lock file, notes) start no rebuild", async () => {
    const before = rebuilds(dev).length;
    writeSources(dev.sources, {
      '.#author.csv': 'root@host.123:1700000000',
      'notes.csv': 'a,b\n',
      'author.csv~': VALID['author.csv']!,
    });
    // Then a save of a source, as a marker: a rebuild the other files started would come before it or name them too.
    writeSources(dev.sources, { 'descriptor.csv': VALID['descriptor.csv']! });
    await until(
      () =>
        rebuilds(dev)
          .slice(before)
          .some((line) => line.includes('descriptor.csv')),
      () => `the descriptor.csv rebuild${dev.stdout()}`,
    );
    expect(rebuilds(dev).slice(before)).toEqual([
      expect.stringMatching(/^rebuilt in \d+\.\d\d s: descriptor\.csv changed; the tree is unchanged$/),
    ]);
  });

  test('a broken edit prints its errors and keeps the last good tree; the fix is served', async () => {
    const good = VALID['author.csv']!.replace('Smith, John', 'Good, Tree');
    writeSources(dev.sources, { 'author.csv': good });
    await until(
      async () => (await term(dev, 'author', 'good')).includes('Good, Tree'),
      () => `the good tree${dev.stdout()}`,
    );

    const stderr = dev.stderr().length;
    writeSources(dev.sources, {
      'author.csv': good.replace('2,"Müller', 'two,"Müller').replace('Good, Tree', 'Broken, Tree'),
    });
    const printed = await until(
      () => /keeping the last good tree\n/.test(dev.stderr().slice(stderr)) && dev.stderr().slice(stderr),
      () => `the errors${dev.stderr()}`,
    );
    expect(printed).toMatch(/^author\.csv:3: .*"two"/m);
    expect(await term(dev, 'author', 'good')).toEqual(['Good, Tree']);
    expect(await term(dev, 'author', 'broken')).toEqual([]);

    writeSources(dev.sources, { 'author.csv': good.replace('Good, Tree', 'Fixed, Tree') });
    await until(
      async () => (await term(dev, 'author', 'fixed')).includes('Fixed, Tree'),
      () => `the fix${dev.stdout()}${dev.stderr()}`,
    );
  });

  test('Ctrl-C (SIGINT) exits with code 0 promptly', async () => {
    const { code, ms } = await dev.stop('SIGINT');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(2_000);
  });
});

describe('reflist dev with a source in a folder below the config', () => {
  test('a save of sub/author.csv is served after one rebuild that names it', async () => {
    const config = {
      ...LOOKUP_SERVICE_CONFIG,
      lists: {
        ...LOOKUP_SERVICE_CONFIG.lists,
        author: { ...LOOKUP_SERVICE_CONFIG.lists.author, source: 'sub/author.csv' },
      },
    };
    const { 'author.csv': author, ...rest } = VALID;
    const dev = await startDev({ ...rest, 'sub/author.csv': author!, 'reflist.config.json': JSON.stringify(config) });
    try {
      expect(await term(dev, 'author', 'smi')).toEqual(['Smith, John']);
      const before = rebuilds(dev).length;
      writeSources(dev.sources, { 'sub/author.csv': author!.replace('Smith, John', 'Below, Saved') });
      await until(
        async () => (await term(dev, 'author', 'below')).includes('Below, Saved'),
        () => `the save below${dev.stdout()}${dev.stderr()}`,
      );
      expect(await rebuildsSince(dev, before)).toEqual([
        expect.stringMatching(/^rebuilt in \d+\.\d\d s: sub\/author\.csv changed; wrote \d+ files$/),
      ]);
    } finally {
      await dev.stop('SIGKILL');
    }
  });
});

describe('reflist dev with a source in a folder that is not there yet', () => {
  test('the folder and the file, saved later, are built', async () => {
    const config = {
      ...LOOKUP_SERVICE_CONFIG,
      lists: { ...LOOKUP_SERVICE_CONFIG.lists, descriptor: { source: 'later/on/descriptor.csv', optional: true } },
    };
    const { 'descriptor.csv': descriptor, ...rest } = VALID;
    const dev = await startDev({ ...rest, 'reflist.config.json': JSON.stringify(config) });
    try {
      expect(await term(dev, 'descriptor', 'sha')).toEqual([]);
      writeSources(dev.sources, { 'later/on/descriptor.csv': descriptor! });
      await until(
        async () => (await term(dev, 'descriptor', 'sha')).includes('Shape'),
        () => `the new folder's source${dev.stdout()}${dev.stderr()}`,
      );
    } finally {
      await dev.stop('SIGKILL');
    }
  });
});

describe('reflist dev when the first build fails', () => {
  test('answers 503 with the errors until a build succeeds, and SIGTERM exits with code 0', async () => {
    const dev = await startDev({ ...VALID, 'author.csv': VALID['author.csv']!.replace('2,"Müller', 'two,"Müller') });
    try {
      expect(dev.stderr()).toMatch(/^author\.csv:3: /m);
      expect(dev.stderr()).toContain('answering 503 until a build succeeds');
      const res = await get(dev.url + 'author.json?Term=smi');
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).errors).toContainEqual(expect.stringMatching(/^author\.csv:3: id: /));
      expect((await get(dev.url + 'demo/lookup/lookup.json')).status).toBe(503);
      expect((await get(dev.url + 'demo/')).status).toBe(200);

      writeSources(dev.sources, { 'author.csv': VALID['author.csv']! });
      await until(
        async () => (await get(dev.url + 'author.json?Term=smi')).status === 200,
        () => `the fix${dev.stdout()}${dev.stderr()}`,
      );
      expect(await term(dev, 'author', 'smi')).toEqual(['Smith, John']);
      const { code, ms } = await dev.stop('SIGTERM');
      expect(code).toBe(0);
      expect(ms).toBeLessThan(2_000);
    } finally {
      await dev.stop('SIGKILL');
    }
  });
});

describe('reflist dev on an output folder that is not a tree', () => {
  test("stops at once with the build's refusal and exit code 1, touching nothing", async () => {
    const root = tempDir('reflist-dev-');
    const sources = writeSources(join(root, 'sources'), VALID);
    writeSources(join(root, 'site'), { 'index.html': '<p>mine</p>' });
    const child = spawn(
      process.execPath,
      [CLI, 'dev', '--sources', sources, '--out', join(root, 'site'), '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    onTestFinished(() => void child.kill('SIGKILL')); // a dev that went on serving is no other test's to stop
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('is not empty and holds no lookup.json: refusing to replace it');
    expect(readFileSync(join(root, 'site/index.html'), 'utf8')).toBe('<p>mine</p>');
  });
});

describe('reflist dev on an output folder another build is writing', () => {
  test("stops at once with the build's refusal and exit code 1", async () => {
    const root = tempDir('reflist-dev-');
    const sources = writeSources(join(root, 'sources'), VALID);
    const holder = new TreeWriter(join(root, 'dist')); // holds the folder's lock until abort
    onTestFinished(() => holder.abort());
    const child = spawn(
      process.execPath,
      [CLI, 'dev', '--sources', sources, '--out', join(root, 'dist'), '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    onTestFinished(() => void child.kill('SIGKILL'));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^another build is writing .*dist \(remove .*dist\.lock if it is not\)\n$/);
  });
});

describe('what reflist dev watches', () => {
  test("the config's folder and the folders on the way to each source, and as inputs only the config, the sources and those folders", () => {
    const config = {
      ...LOOKUP_SERVICE_CONFIG,
      lists: {
        ...LOOKUP_SERVICE_CONFIG.lists,
        author: { ...LOOKUP_SERVICE_CONFIG.lists.author, source: 'sub/deeper/author.csv' },
      },
    };
    const sources = writeSources(tempDir('reflist-watch-'), {
      ...VALID,
      'reflist.config.json': JSON.stringify(config),
    });
    const inputs = buildInputs(sources, undefined);
    expect(inputs.folders).toEqual(['', 'sub', 'sub/deeper']);
    const paths = [
      'reflist.config.json',
      'sub/deeper/author.csv',
      'sub',
      'author.csv',
      'system.csv',
      'node_modules/x/a.csv',
      '.reflist/dist.a.cache/author.csv',
      'sub/notes.csv',
    ];
    expect(paths.filter(inputs.isInput)).toEqual(['reflist.config.json', 'sub/deeper/author.csv', 'sub', 'system.csv']);
  });

  test('while the config cannot be read: the config and every CSV the build would warn of, no folder named', () => {
    const sources = writeSources(tempDir('reflist-watch-'), { 'reflist.config.json': '{ "lists": ' });
    const inputs = buildInputs(sources, undefined);
    expect(inputs.folders).toBeUndefined();
    expect(
      [
        'reflist.config.json',
        'a.csv',
        'sub/b.csv',
        '.#a.csv',
        'node_modules/x/a.csv',
        '.reflist/dist.a.cache/a.csv',
        'a.csv~',
      ].filter(inputs.isInput),
    ).toEqual(['reflist.config.json', 'a.csv', 'sub/b.csv']);
  });
});

describe('scheduleBuilds', () => {
  test('changes during a build make exactly one more build, with every file that changed', async () => {
    // vitest's clock: the quiet time has passed once the test moves the clock past it, where a
    // sleep of real time could end before a busy machine ran the scheduler's timer.
    vi.useFakeTimers();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const QUIET_MS = 20;
    const runs: string[][] = [];
    let finish = () => {};
    const builds = scheduleBuilds(async (changed) => {
      runs.push(changed);
      await new Promise<void>((done) => (finish = done));
    }, QUIET_MS);
    builds.change('author.csv');
    expect(runs).toHaveLength(0); // not before the quiet time
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    expect(runs).toEqual([['author.csv']]);
    for (const file of ['state.csv', 'county.csv', 'state.csv']) builds.change(file);
    // The quiet time passes (five times over) while the build still runs: no second build yet.
    await vi.advanceTimersByTimeAsync(5 * QUIET_MS);
    expect(runs).toHaveLength(1);
    finish();
    await vi.waitFor(() => expect(runs, 'the queued build').toHaveLength(2));
    finish();
    await builds.close();
    expect(runs).toEqual([['author.csv'], ['county.csv', 'state.csv']]);
  });
});

describe('the demo vendor scripts', () => {
  test('come from the installed packages, at the versions pinned for jsDelivr', () => {
    const installed = vendorSources(createRequire(import.meta.url).resolve);
    for (const [name, [pkg]] of VENDOR) {
      expect(installed.get(name)).toHaveProperty('root');
      expect(JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, 'utf8')).version).toBe(
        DEMO_PACKAGES.get(pkg)![1],
      );
    }
  });

  test('redirect to jsDelivr when the packages are not installed', () => {
    const missing = vendorSources(() => {
      throw new Error('Cannot find module');
    });
    expect(missing.get('select2.min.js')).toEqual({
      redirect: 'https://cdn.jsdelivr.net/npm/select2@4.1.0/dist/js/select2.min.js',
    });
    expect(missing.get('jquery.min.js')).toEqual({
      redirect: 'https://cdn.jsdelivr.net/npm/jquery@3.8.0/dist/jquery.min.js',
    });
  });

  test('an installed jQuery 4, which select2 4.1 stops on, is not served: jQuery 3 comes from jsDelivr, with a warning that says what to install', () => {
    const project = tempDir('reflist-jquery4-');
    writeSources(join(project, 'node_modules/jquery'), {
      'package.json': JSON.stringify({ name: 'jquery', version: '4.0.0' }),
      'dist/jquery.min.js': '/* 4 */',
    });
    writeSources(join(project, 'node_modules/select2'), {
      'package.json': JSON.stringify({ name: 'select2', version: '4.1.0' }),
      'dist/js/select2.min.js': '',
    });
    const sources = vendorSources(createRequire(join(project, 'package.json')).resolve);
    expect(sources.get('jquery.min.js')).toEqual({
      redirect: 'https://cdn.jsdelivr.net/npm/jquery@3.8.0/dist/jquery.min.js',
      installed: '4.0.0',
    });
    expect(sources.get('select2.min.js')).toEqual({
      root: join(project, 'node_modules/select2'),
      path: 'dist/js/select2.min.js',
    });
    expect(vendorWarnings(sources)).toEqual([
      'the demo works with jquery 3.x, not the installed 4.0.0: it takes jquery 3.8.0 from jsDelivr (npm install --save-dev jquery@3 to serve it offline)',
    ]);
  });

  test('the demo page asks for each package at the versions dev serves from an install', () => {
    const advice = [...readFileSync('demo/demo.js', 'utf8').matchAll(/\b([a-z][\w.-]*)@(\d[\w.]*)/g)].map(
      ([, pkg, range]) => [pkg, range],
    );
    expect(advice).toEqual([...DEMO_PACKAGES].map(([pkg, [range]]) => [pkg, range]));
    for (const [pkg, [range, pinned]] of DEMO_PACKAGES) expect([pkg, inRange(pinned, range)]).toEqual([pkg, true]);
    expect(demoInstall('jquery', 'select2')).toBe('npm install --save-dev jquery@3 select2@4.1');
    expect([
      inRange('3.7.1', '3'),
      inRange('4.0.0', '3'),
      inRange('4.1.0-rc.0', '4.1'),
      inRange('4.0.13', '4.1'),
      inRange('31.0.0', '3'),
    ]).toEqual([true, false, true, false, false]);
  });
});

describe('reflist dev on a port in use', () => {
  test('says so in one line and exits 1, with no stack trace', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => busy.close(() => r())));
    const { port } = busy.address() as AddressInfo;
    const root = tempDir('reflist-dev-');
    const sources = writeSources(join(root, 'sources'), VALID);
    const child = spawn(
      process.execPath,
      [CLI, 'dev', '--sources', sources, '--out', join(root, 'dist'), '--port', String(port)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `--port: 127.0.0.1:${port} is in use; choose another port, or --port 0 for any free one\n`,
    });
  }, 30_000);
});
