import { describe, expect, test } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/cli.js';
import { VALID } from '../fixtures/valid.js';
import { build, buildTuned, type BuildOptions } from '../../src/build.js';
import { buildFrom, snapshotTree, tempDir, treeClient, writeSources } from '../helpers.js';
import { fileAnswer } from '../../src/client/client.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('a build', () => {
  test('is deterministic: two builds of the same sources are byte-identical', async () => {
    const a = join(tempDir(), 'a');
    const b = join(tempDir(), 'b');
    await buildFrom(VALID, a, 2);
    await buildFrom(VALID, b, 2);
    expect(snapshotTree(b)).toEqual(snapshotTree(a));
  });

  test('writes every public path of docs/contract.md §3', async () => {
    const out = join(tempDir(), 'dist');
    await buildFrom(VALID, out, 2);
    const files = [...snapshotTree(out).keys()];
    for (const path of [
      'author.json',
      'author/page/1.json',
      'author/page/2.json',
      'author/system/gbif.json',
      'author/system/gbif/page/2.json',
      'division.json',
      'division/page/1.json',
      'division/system/col/page/1.json',
      'descriptor.json',
      'descriptor/page/1.json',
      'country.json',
      'country/840.json',
      'country/840/state.json',
      'country/840/state/6.json',
      'country/840/state/6/county.json',
      'country/840/state/6/county/6037.json',
      'country/124/state.json',
      'lookup.json',
      'lookup-client.js',
      '404.html',
    ])
      expect(files).toContain(path);
    expect(files).not.toContain('author/page/3.json');
    const read = (p: string) => JSON.parse(readFileSync(join(out, p), 'utf8'));
    expect(read('author/page/2.json')).toEqual({
      total: 4,
      items: [
        { id: 1, text: 'Smith, John' },
        { id: 4, text: '王 伟' },
      ],
    });
    expect(read('author/system/gbif.json').items[0]).toEqual({ id: 2, text: 'Müller, Jürgen', count: 0 });
    expect(read('country/840/state/6/county/6037.json')).toEqual({
      FIPS: 6037,
      LongitudeCenter: -118.2243,
      county: 'Los Angeles',
      latitudeCenter: 34.3207,
    });
    expect(Object.keys(read('country/840/state/6/county/6037.json'))).toEqual([
      'FIPS',
      'LongitudeCenter',
      'county',
      'latitudeCenter',
    ]);
    expect(read('country/124/state.json')).toEqual({ total: 0, items: [] });
    expect(read('lookup.json')).toMatchObject({ format: 4, pageSize: 2, systems: [{ id: 'col' }, { id: 'gbif' }] });
  });

  test('prints rows per list, files, bytes and time', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    const { code, stdout } = await cli(['build', '--sources', sources, '--out', out, '--page-size', '3']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'rows: author 4, division 2, category 3, descriptor 2, country 2, state 2, county 2, system 2',
    );
    expect(stdout).toMatch(
      /tree: \d+ files, \d+\.\d\d MB at .*\nwrote \d+ changed files, linked 0 unchanged, removed 0 in \d+\.\d\d s/,
    );
  });
});

describe('the command line', () => {
  test("--version prints the package's version", async () => {
    const { code, stdout } = await cli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    );
  });

  test('--help explains every build option', async () => {
    const { code, stdout } = await cli(['build', '--help']);
    expect(code).toBe(0);
    for (const option of ['--sources <dir>', '--out <dir>', '--page-size <n>']) expect(stdout).toContain(option);
  });

  test.each([['0'], ['abc'], ['1.5']])('rejects --page-size %s with what it expected', async (value) => {
    const { code, stderr } = await cli(['build', '--page-size', value]);
    expect(code).toBe(2);
    expect(stderr).toContain(`--page-size: expected an integer from 1 to 10000, got "${value}"`);
  });

  test('suggests the flag a typo meant', async () => {
    const { code, stderr } = await cli(['build', '--page-sise', '3']);
    expect(code).toBe(2);
    expect(stderr).toContain('--page-size');
  });

  test('names a missing sources folder', async () => {
    const { code, stderr } = await cli(['build', '--sources', '/nonexistent/folder']);
    expect(code).toBe(1);
    expect(stderr).toContain('--sources: no such folder /nonexistent/folder');
  });

  test('finishes a build whose output pipe a reader closed early, as `reflist build | head -1` can', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    const child = spawn(process.execPath, ['lib/cli.js', 'build', '--sources', sources, '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the first line
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const [code] = (await once(child, 'close')) as [number];
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')).lists.author.total).toBeGreaterThan(0);
  });
});

describe('the shipped sources', () => {
  test('build, and answer known rows through the client', async () => {
    const out = join(tempDir(), 'dist');
    const report = await build({ sources: 'sources', out, pageSize: 30 });
    expect(report.rows['county']).toBeGreaterThan(3000);
    const client = await treeClient(out, {
      baseUrl: 'file:/',
      fetch: async (url) => {
        try {
          return fileAnswer(readFileSync(join(out, url.slice('file:/'.length))));
        } catch {
          return fileAnswer(undefined);
        }
      },
    });
    expect((await client.request('/country/840.json')).body).toEqual({ id: 840, text: 'United States' });
    expect((await client.request('/country/840/state/06.json')).body).toEqual({ id: 6, text: 'California' });
    const la = await client.request<{ FIPS: number; county: string; latitudeCenter: number; LongitudeCenter: number }>(
      '/country/840/state/6/county/6037.json',
    );
    if (la.status !== 200) throw new Error(la.body.error);
    expect(la.body).toMatchObject({ FIPS: 6037, county: 'Los Angeles' });
    const county = la.body;
    expect(county.latitudeCenter).toBeCloseTo(34.3, 1);
    expect(county.LongitudeCenter).toBeCloseTo(-118.2, 1);
    const states = (await client.request('/country/840/state.json?Term=new')).body as { items: { text: string }[] };
    expect(states.items.map((s) => s.text)).toEqual(['New Hampshire', 'New Jersey', 'New Mexico', 'New York']);
  });
});

describe('the programmatic API', () => {
  test('takes no search-file tuning: build ignores one, as BuildOptions has none; the tests tune through buildTuned', async () => {
    const sources = writeSources(tempDir('reflist-src-'), VALID);
    const [plain, given, tuned] = [1, 2, 3].map(() => join(tempDir('reflist-out-'), 'dist')) as [
      string,
      string,
      string,
    ];
    const tiny = { leafBytes: 64, fileBytes: 64, pagesBytes: 64 };
    await build({ sources, out: plain, pageSize: 2 });
    // @ts-expect-error search is not an option of the API
    const options: BuildOptions = { sources, out: given, pageSize: 2, search: tiny };
    await build(options);
    await buildTuned({ sources, out: tuned, pageSize: 2, search: tiny });
    expect(snapshotTree(given)).toEqual(snapshotTree(plain));
    expect(snapshotTree(tuned)).not.toEqual(snapshotTree(plain));
  });
});

describe('src/ beside lib/', () => {
  test('code run from src/ refuses a lib/ compiled from other sources, naming the fix, and takes one compiled from these', () => {
    // A copy of the project's src/, lib/ and package.json, so that a stale stamp is this test's alone.
    const root = tempDir('reflist-stale-');
    cpSync('src', join(root, 'src'), { recursive: true });
    cpSync('lib', join(root, 'lib'), { recursive: true });
    cpSync('package.json', join(root, 'package.json'));
    symlinkSync(join(process.cwd(), 'node_modules'), join(root, 'node_modules'));
    const out = join(tempDir(), 'dist');
    const buildFromSource = () =>
      spawnSync(
        join(process.cwd(), 'node_modules/.bin/tsx'),
        [
          '-e',
          `import('./src/build.ts').then((m) => m.build({ sources: ${JSON.stringify(join(process.cwd(), 'sources'))}, out: ${JSON.stringify(out)} })).then(() => console.log('built'), (e) => console.log(e.message))`,
        ],
        { cwd: root, encoding: 'utf8' },
      ).stdout.trim();
    expect(buildFromSource()).toBe('built');
    writeFileSync(join(root, 'src/progress.ts'), readFileSync(join(root, 'src/progress.ts'), 'utf8') + '// edited\n');
    expect(buildFromSource()).toBe('lib/ was compiled from other sources than src/ holds now: run npm run compile');
  });
});
