// Where a tree fits: the measure every build prints, taken from the writer's
// index, against a walk of the real tree; --host and the config's host, which
// fail a build over a host's caps before its tree is swapped in; the folders
// over the contract's 10,000 entries.
import { describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../../src/build.js';
import { run } from '../../src/cli.js';
import { ReflistErrors } from '../../src/errors.js';
import { indexEntry, type Index } from '../../src/write/diff.js';
import { measureTree, overCaps, partOf } from '../../src/write/fit.js';
import { HOST_NAMES, HOSTS, type Host } from '../../src/config/hosts.js';
import { VALID } from '../fixtures/valid.js';
import { snapshotTree, tempDir, writeSources } from '../helpers.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** A tree as a person's `find` sees it: every file with its bytes, and every folder's entries. */
function walk(root: string) {
  const files = new Map<string, number>();
  const folders = new Map<string, number>();
  const visit = (dir: string, prefix: string) => {
    const names = readdirSync(join(root, dir));
    folders.set(prefix, names.length);
    for (const name of names) {
      const path = join(root, dir, name);
      if (statSync(path).isDirectory()) visit(join(dir, name), `${prefix}${name}/`);
      else files.set(`${prefix}${name}`, statSync(path).size);
    }
  };
  visit('', '');
  const sizes = [...files.values()];
  const fullest = Math.max(...folders.values());
  return {
    files: files.size,
    bytes: sizes.reduce((a, b) => a + b, 0),
    largest: Math.max(...sizes),
    fullest: { entries: fullest, paths: [...folders].filter(([, n]) => n === fullest).map(([path]) => path) },
    // a copy is a sibling of a file the tree serves; a .json.gz alone is a file the tree stores compressed
    copies: [...files].filter(([path]) => /\.(gz|br)$/.test(path) && files.has(path.slice(0, -3))),
  };
}

const index = (files: Record<string, number>): Index =>
  new Map(Object.entries(files).map(([path, bytes]) => [path, indexEntry(path, bytes)]));

describe('the measure of a tree', () => {
  test('counts the files and the folders right in a folder as its entries, once each', () => {
    const size = measureTree(
      index({ 'a.json': 1, 'a/page/1.json': 2, 'a/page/2.json': 3, 'a/1.json': 4, 'b/c/d/e.json': 5 }),
    );
    expect(size).toMatchObject({
      files: 5,
      bytes: 15,
      largest: { path: 'b/c/d/e.json', bytes: 5 },
      fullest: { path: '', entries: 3 },
    });
  });

  test('counts a .gz or .br beside its file as a copy, and a file stored compressed as a file', () => {
    const size = measureTree(
      index({ 'a.json': 300, 'a.json.gz': 90, 'a.json.br': 80, 'a/id/0123456789abcdef-4/0/1.json.gz': 50 }),
    );
    expect(size.copies).toEqual({ files: 2, bytes: 170 });
    expect(size.parts['a']).toEqual({
      public: { files: 1, bytes: 300 },
      copies: { files: 2, bytes: 170 },
      id: { files: 1, bytes: 50 },
    });
  });

  test.each([
    ['author/page/2.json', 'page'],
    ['author/system/gbif/page/2.json', 'page'],
    ['author.json', 'public'],
    ['country/840/state/6.json', 'public'],
    ['author/id/0123456789abcdef-32/0/7.json', 'id'],
    ['division/child/0123456789abcdef-4/0/1.json', 'id'],
    ['author/search/3f/0123456789abcd.json', 'search'],
    ['author/pages/3f/0123456789abcd.json', 'results'],
    ['word/blocks/3f/0123456789abcd.json.gz', 'results'],
    ['word/pools/3f/0123456789abcd.json.gz', 'search'],
    ['word/skips/3f/0123456789abcd.json.gz', 'search'],
    ['word/vocab/0123456789abcdef-8/0/3.json.gz', 'search'],
    ['author/search/3f/0123456789abcd.json.gz', 'search'],
    ['lookup.json', 'other'],
    ['_routes.json', 'other'],
    ['_netlify/reflist.js', 'other'],
    ['lookup-client.js', 'other'],
  ] as const)('reads %s as a %s file', (path, part) => expect(partOf(path)).toBe(part));

  test('lists every folder over a cap, fullest first, and a host over it names each', () => {
    const files: Record<string, number> = {};
    for (let i = 0; i < 12; i++) files[`a/${i}.json`] = 1;
    for (let i = 0; i < 6; i++) files[`b/page/${i}.json`] = 1;
    const host: Host = { name: 'tiny', title: 'Tiny', folderEntries: 5 };
    const size = measureTree(index(files), host);
    expect(size.crowded).toEqual([
      { path: 'a/', entries: 12, copies: 0 },
      { path: 'b/page/', entries: 6, copies: 0 },
    ]);
    expect(overCaps(size, host).map((m) => m.figure === 'folder' && m.path)).toEqual(['a/', 'b/page/']);
  });

  test("a host's settings files are not among its files: Cloudflare Pages counts what wrangler uploads", () => {
    const size = measureTree(index({ '_worker.js': 10, _headers: 1, '_routes.json': 1, 'a.json': 1 }));
    expect(
      overCaps(size, { name: 'cf', title: 'cf', files: 1, settings: ['_worker.js', '_headers', '_routes.json'] }),
    ).toEqual([]);
    expect(overCaps(size, { name: 'other', title: 'other', files: 1 })).toEqual([
      { figure: 'files', value: 4, cap: 1 },
    ]);
  });

  test.each(HOST_NAMES)('%s takes a tree at each of its caps, and names the figure of a tree one over it', (name) => {
    const host = HOSTS[name];
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a/${i}.json`, 1]));
    const cases: [number | undefined, (n: number) => Record<string, number>, string][] = [
      [host.files, files, 'files'],
      [host.folderEntries, files, 'folder'],
      [host.fileBytes, (n) => ({ 'a.json': n }), 'file'],
      [host.siteBytes, (n) => ({ 'a.json': n / 2, 'b.json': n / 2 }), 'site'],
    ];
    for (const [cap, tree, figure] of cases) {
      if (cap === undefined) continue;
      expect(overCaps(measureTree(index(tree(cap)), host), host)).toEqual([]);
      expect(
        overCaps(measureTree(index(tree(cap + (figure === 'site' ? 2 : 1))), host), host).map((m) => m.figure),
      ).toContain(figure);
    }
  });

  test("the schema's hosts are the ones --host knows", () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../schema/reflist.config.schema.json', import.meta.url), 'utf8'),
    );
    expect(schema.properties.host.enum).toEqual(HOST_NAMES);
  });
});

describe('every build', () => {
  test.each([false, true])(
    'prints one line of its tree (--compress %s) whose figures equal a walk of the tree, copies counted',
    async (compress) => {
      const sources = writeSources(tempDir(), VALID);
      const out = join(tempDir(), 'dist');
      const { code, stdout } = await cli([
        'build',
        '--sources',
        sources,
        '--out',
        out,
        '--page-size',
        '2',
        ...(compress ? ['--compress'] : []),
      ]);
      expect(code).toBe(0);
      const seen = walk(out);
      const line = stdout.split('\n').find((l) => l.startsWith('tree: '))!;
      const [, files, mb, copies, largest, fullest, entries] =
        /^tree: (\d+) files, ([\d.]+) MB at .*?(?:, (\d+) of them \.gz\/\.br copies \([\d.]+ MB\))?; largest (\S+) \(.*?\), fullest folder (the root|\S+) \((\d+) entries\); fits every host --host knows$/.exec(
          line,
        )!;
      expect(Number(files)).toBe(seen.files);
      expect(mb).toBe((seen.bytes / 1e6).toFixed(2));
      expect(Number(copies ?? 0)).toBe(seen.copies.length);
      expect(compress ? seen.copies.length : 1).toBeGreaterThan(0);
      expect(statSync(join(out, largest!)).size).toBe(seen.largest);
      expect(seen.fullest.paths).toContain(fullest === 'the root' ? '' : fullest);
      expect(Number(entries)).toBe(seen.fullest.entries);
      const report = await build({ sources, out, pageSize: 2, compress });
      expect(report).toMatchObject({ unchanged: true, files: seen.files, bytes: seen.bytes });
      expect(report.size.copies).toEqual({
        files: seen.copies.length,
        bytes: seen.copies.reduce((n, [, b]) => n + b, 0),
      });
    },
  );

  test('--quiet prints nothing of it', async () => {
    const sources = writeSources(tempDir(), VALID);
    expect(await cli(['build', '--quiet', '--sources', sources, '--out', join(tempDir(), 'dist')])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });
});

describe('a tree over a cap of its host', () => {
  // Small caps of a host of the test's own: the figures the build checks, on a small tree.
  const CAPS: [string, Omit<Host, 'name' | 'title'>, RegExp][] = [
    ['files', { files: 20 }, /^tiny: \d+ files, over 20: most are .* of \w+ \(\d+\): .+/],
    ['one file', { fileBytes: 2000 }, /^tiny: file \S+ is [\d.]+ KiB, over [\d.]+ KiB( \(and \d+ more files\))?: .+/],
    ['one folder', { folderEntries: 4 }, /^tiny: folder (the root|\S+) holds \d+ entries, over Tiny's ~4: .+/],
    ['the site', { siteBytes: 10_000 }, /^tiny: [\d.]+ kB, over 10 kB: most are .+/],
  ];

  test.each(CAPS)(
    '(%s) fails before its tree is swapped in, naming the figure and the knob; the served tree stays byte for byte',
    async (_what, caps, message) => {
      const sources = writeSources(tempDir(), VALID);
      const out = join(tempDir(), 'dist');
      await build({ sources, out, pageSize: 2 });
      const [before, link] = [snapshotTree(out), readlinkSync(out)];
      const edited = writeSources(sources, {
        'author.csv': VALID['author.csv']!.replace('Smith, John', 'Smith, Johnny'),
      });
      const failed = await build({
        sources: edited,
        out,
        pageSize: 2,
        host: { name: 'tiny', title: 'Tiny', ...caps },
      }).catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(ReflistErrors);
      const errors = (failed as ReflistErrors).errors;
      expect(errors.map((e) => e.code)).toEqual(errors.map(() => 'OVER_CAP'));
      expect(String(errors[0])).toMatch(message);
      expect(snapshotTree(out)).toEqual(before);
      expect(readlinkSync(out)).toBe(link);
      // The same build for a host with room for it swaps the edited tree in.
      await build({ sources: edited, out, pageSize: 2, host: 's3' });
      expect(snapshotTree(out)).not.toEqual(before);
    },
  );

  test('a tree under every cap of a named host builds, and the config names the host', async () => {
    const sources = writeSources(tempDir(), {
      ...VALID,
      'reflist.config.json': '{"host": "cloudflare-pages-free", "lists": {"author": {}}}',
    });
    const { code, stdout } = await cli(['build', '--sources', sources, '--out', join(tempDir(), 'dist')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\ntree: \d+ files, .*; fits every host --host knows\n/);
  });
});

describe('a list of 10,001 items, a page each', () => {
  // Real caps, exceeded for real: an item folder over the contract's 10,000 entries, and over 20,000 files.
  const rows = Array.from({ length: 10_001 }, (_, i) => `${i + 1},Item ${i + 1}`);
  const files = {
    'item.csv': `id,text\n${rows.join('\n')}\n`,
    'reflist.config.json': JSON.stringify({ pageSize: 1, lists: { item: { items: true } } }),
  };

  test("warns of its item folder, and fails --host cloudflare-pages-free (exit 1) but for the config's host, leaving the served tree", async () => {
    const sources = writeSources(tempDir(), files);
    const out = join(tempDir(), 'dist');
    const first = await cli(['build', '--sources', sources, '--out', out]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      'warning: folder item/ holds 10,007 entries, over the 10,000 of docs/contract.md §3: the hosts --host knows take it; to keep under: ' +
        'declare "items": false on lists.item (Id lookups answer its items all the same), or list it under a parent (docs/lists.md#when-a-list-outgrows-a-host)\n' +
        'warning: folder item/page/ holds 10,001 entries, over the 10,000 of docs/contract.md §3: the hosts --host knows take it; to keep under: ' +
        '"pageSize": 2 or more (now 1; --page-size overrides it)\n',
    );
    expect(first.stdout).toMatch(
      /\ntree: \d+ files, .*; not cloudflare-pages-free \(\d{2},\d{3} files, over 20,000\)\n/,
    );
    // Cloudflare's own check, offline, says the same.
    const home = tempDir('reflist-wrangler-');
    const wrangler = spawnSync(
      join(process.cwd(), 'node_modules/.bin/wrangler'),
      ['pages', 'project', 'validate', `${out}/`],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          WRANGLER_SEND_METRICS: 'false',
          WRANGLER_LOG_PATH: join(home, 'logs'),
          XDG_CONFIG_HOME: join(home, 'config'),
          NO_COLOR: '1',
        },
      },
    );
    expect(wrangler.status).not.toBe(0);
    expect(wrangler.stdout + wrangler.stderr).toContain('Pages only supports up to 20,000 files');
    const [before, link] = [snapshotTree(out), readlinkSync(out)];
    writeSources(sources, { 'item.csv': files['item.csv'].replace('Item 7\n', 'Item seven\n') });
    const refused = await cli(['build', '--sources', sources, '--out', out, '--host', 'cloudflare-pages-free']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^cloudflare-pages-free: \d{2},\d{3} files, over 20,000: most are (page files|item and list files) of item \(\d{2},\d{3}\): .+; or build for a host with room for it \(--host github-pages, cloudflare-pages, netlify, s3, r2\)$/m,
    );
    expect(refused.stderr).toContain('build failed with 1 error; nothing was written');
    expect(snapshotTree(out)).toEqual(before);
    expect(readlinkSync(out)).toBe(link);
    // --host overrides the config's host.
    writeSources(sources, {
      'reflist.config.json': files['reflist.config.json'].replace(
        '{"pageSize"',
        '{"host": "cloudflare-pages-free", "pageSize"',
      ),
    });
    expect((await cli(['build', '--quiet', '--sources', sources, '--out', out])).code).toBe(1);
    expect(snapshotTree(out)).toEqual(before);
    expect(
      (await cli(['build', '--quiet', '--sources', sources, '--out', out, '--host', 'cloudflare-pages'])).code,
    ).toBe(0);
    expect(snapshotTree(out)).not.toEqual(before);
  }, 180_000);
});
