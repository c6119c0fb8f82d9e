// Benchmarks, each printing the figures its issue names. With --docs, build,
// ab, size, compress and scale also put their table into docs/performance.md
// (cities into docs/examples.md), between the markers `<!-- bench NAME -->` and
// `<!-- /bench NAME -->`, so the figures there are the bench's own output,
// never edited by hand.
//
//   npm run bench -- search [--authors N]   the Term index on a generated corpus:
//       files and bytes of the index and of the whole tree, build time, the
//       per-visit load (lookup.json), requests and bytes per keystroke, the
//       worst response for a pasted term.
//   npm run bench -- build [--authors N,N]  full builds (wall time, peak RSS,
//       files, bytes, files/s) against the floor: plain fs writing the same
//       files into the same folders; then incremental rebuilds after one
//       author's text changes, and with no change.
//   npm run bench -- writer [--authors N] [--rounds R]  the writer thread
//       against writing on the main thread, paired round by round: a build
//       into an empty folder, its first and next edit rebuild, time and RSS.
//   npm run bench -- ab --against REV [--authors N] [--rounds R]  this tree
//       against another commit, built in a temporary clone: a full build and
//       two edit rebuilds each round, the two in turns (A B, then B A), with
//       wall time and peak RSS per run and the median of the paired ratios.
//   npm run bench -- deploy [--authors N]   a page left open across a deploy
//       (test/deploy.ts): per host kind, its answers before and after the
//       deploy equal to build A's reference, B's, or neither, its errors, and
//       the requests it made after the deploy.
//   npm run bench -- writes [--authors N,N]  what an incremental build
//       writes: the files written, linked and removed after one author's
//       text changes, one author is added, one is removed.
//   npm run bench -- declared [--rows N]  a list of one's own (string ids, a
//       label template, two fields; 1,000,000 rows by default) declared in
//       reflist.config.json: its full build's wall time, peak RSS, files and
//       bytes, and an edit rebuild's.
//   npm run bench -- widgets   the drop-down adapters: each one's size
//       minified and gzipped, and in Chromium the requests it makes for a
//       term typed a key at a time, for page 2, and for 100 saved ids.
//   npm run bench -- size [--rows N,N] [--authors N] [--against REV]  what a
//       tree holds part by part (public, Id buckets, search files, result
//       pages, other), this tree against REV (17c080e), over the declared
//       list, the preset's generated sources and the real cities (bench-size.ts).
//   npm run bench -- compress [--authors N] [--rounds R]  what --compress
//       costs: each quality's CPU time and ratio, and builds with and without.
//   npm run bench -- keys [--against REV]  real multi-word queries, some with
//       a typo, typed a key at a time into the city, character and
//       dictionary pickers, and the preset's labels' word starts, in this
//       tree and REV's (536b582): requests and bytes a keystroke (bench-keys.ts).
//   npm run bench -- cities   docs/examples.md's pickers over the full real
//       cities and languages, plain and with order and search: files and bytes
//       of each list, requests and bytes per keystroke typing real names, and
//       where each request of its table puts what a person looks for (bench-cities.ts).
//   npm run bench -- scale [--rows N,N]  how far a build goes: a corpus shaped
//       like GBIF's scientific names (scripts/sources/species.ts) at 1, 2, 5
//       and 10 million rows by default, each a row of full and edit rebuild
//       time and peak RSS, files, bytes, the fullest folder, internal and
//       public bytes, lookup.json, and requests and bytes per keystroke; a
//       build that fails is a row saying how (bench-scale.ts).
//   npm run bench -- store [--rows N,N]  what holding the species list costs,
//       as today's objects and as columns sorted by runs on disk, each in a
//       fresh process: time, heap and resident memory a stage (bench-store.ts;
//       docs/architecture.md, Memory).
//   npm run bench -- parser [--authors N] [--rounds R]  the time to read all
//       the sources alone (csv-parse). The A/B of the hand-written parser
//       against csv-parse that chose it is this mode at commit 7cc075b
//       (docs/performance.md): run it in a worktree of that commit.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import fg from 'fast-glob';
import { buildTuned } from '../src/build.js';
import { readTableFile } from '../src/sources/read.js';
import { sourceFiles } from '../src/config/declaration.js';
import { loadDeclaration } from '../src/config/load.js';
import { createLookupClient, fileAnswer } from '../src/client/client.js';
import { fold } from '../src/client/fold.js';
import { deployRun, randomRequest, sourcesA, sourcesB, type Tally } from '../test/deploy.js';
import { startServe, tempDir } from '../test/helpers.js';
import { widgetsBench } from './bench-widgets.js';
import { citiesBench } from './bench-cities.js';
import { cliAt, compressBench, sizeBench } from './bench-size.js';
import { keysBench } from './bench-keys.js';
import { scaleBench } from './bench-scale.js';
import { storeBench, storeOne } from './bench-store.js';
import { writeSynthetic } from './sources.js';
import { writeDeclared } from './sources/declared.js';
import { mulberry32 } from './sources/prng.js';
import { int, kb, mb, quantile } from './format.js';

function treeStats(out: string, filter: (path: string) => boolean) {
  let files = 0;
  let bytes = 0;
  let max = 0;
  let over16k = 0;
  for (const path of fg.sync('**/*', { cwd: out })) {
    if (!filter(path)) continue;
    const size = statSync(join(out, path)).size;
    files++;
    bytes += size;
    max = Math.max(max, size);
    if (size > 16 * 1024) over16k++;
  }
  return { files, bytes, max, over16k };
}

/** With --docs, replaces the text between `<!-- bench NAME -->` and `<!-- /bench NAME -->` in `file`. */
function toDocs(name: string, lines: string[], file = 'docs/performance.md'): void {
  if (!values.docs) return;
  const doc = readFileSync(file, 'utf8');
  const [open, close] = [`<!-- bench ${name} -->`, `<!-- /bench ${name} -->`];
  const [start, end] = [doc.indexOf(open), doc.indexOf(close)];
  if (start < 0 || end < start) throw new Error(`${file} has no ${open} … ${close} block`);
  writeFileSync(file, `${doc.slice(0, start + open.length)}\n${lines.join('\n')}\n${doc.slice(end)}`);
  console.log(`\nwritten to ${file} (${name})`);
}

async function searchBench(authors: number): Promise<void> {
  const sources = tempDir('reflist-bench-src-');
  const out = join(tempDir('reflist-bench-'), 'dist');
  const sizes = {
    authors,
    descriptors: authors / 5,
    divisions: authors / 200,
    categories: authors / 25,
    systems: 3,
    seed: 1,
  };
  await writeSynthetic(sources, sizes);
  console.log(
    `corpus: ${int(authors)} authors, ${int(sizes.descriptors)} descriptors, ${int(sizes.divisions)} divisions with ${int(sizes.categories)} categories, 3 systems`,
  );
  const search = process.env['REFLIST_SEARCH'] ? JSON.parse(process.env['REFLIST_SEARCH']) : undefined;
  const report = await buildTuned({ sources, out, pageSize: 30, search });
  const rows = Object.values(report.rows).reduce((a, b) => a + b, 0);
  console.log(`build: ${(report.ms / 1000).toFixed(1)} s, ${int(report.files)} files, ${mb(report.bytes)}`);

  const index = treeStats(out, (p) => /^[a-z]+\/(search|pages)\//.test(p));
  for (const list of ['author', 'division', 'descriptor']) {
    const search = treeStats(out, (p) => p.startsWith(`${list}/search/`));
    const pages = treeStats(out, (p) => p.startsWith(`${list}/pages/`));
    console.log(
      `  ${list}: ${int(search.files)} search files, ${mb(search.bytes)}, largest ${kb(search.max)}; ${int(pages.files)} page files, ${mb(pages.bytes)}, largest ${kb(pages.max)}`,
    );
  }
  const listRows =
    report.rows['author']! + report.rows['division']! + report.rows['category']! + report.rows['descriptor']!;
  console.log(
    `search index: ${int(index.files)} files (one per ${(listRows / index.files).toFixed(1)} rows of the searched lists), ${mb(index.bytes)}, ${index.over16k} files over 16 KB`,
  );
  console.log(`whole tree: ${int(report.files)} files, ${mb(report.bytes)} (${int(rows)} source rows)`);
  const manifest = readFileSync(join(out, 'lookup.json'));
  console.log(`per-visit load (lookup.json): ${kb(manifest.length)}, ${kb(gzipSync(manifest).length)} gzipped`);

  // Type labels' word starts one character at a time through the client, counting requests and bytes.
  let requests = 0;
  let bytes = 0;
  const fetch = async (url: string) => {
    const path = url.slice('bench:/'.length);
    let data: Uint8Array | undefined;
    try {
      data = readFileSync(join(out, path));
    } catch {
      data = undefined;
    }
    if (path !== 'lookup.json') {
      requests++;
      bytes += data?.length ?? 0;
    }
    return fileAnswer(data);
  };
  const labels = {
    author: readFileSync(join(sources, 'author.csv'), 'utf8').split('\n').slice(1, -1),
    descriptor: readFileSync(join(sources, 'descriptor.csv'), 'utf8').split('\n').slice(1, -1),
    division: readFileSync(join(sources, 'category.csv'), 'utf8').split('\n').slice(1, -1),
  };
  const random = mulberry32(7);
  const perKeystroke: number[] = [];
  const responseBytes: number[] = [];
  let keystrokes = 0;
  for (const [list, lines] of Object.entries(labels)) {
    for (let t = 0; t < 300; t++) {
      const client = createLookupClient({ baseUrl: 'bench:/', fetch }); // a fresh page visit
      const words = fold(lines[Math.floor(random() * lines.length)]!).split(' ');
      const term = words
        .slice(Math.floor(random() * words.length))
        .join(' ')
        .slice(0, 14);
      const system = list !== 'descriptor' && random() < 0.5 ? '&System=gbif' : '';
      for (let i = 1; i <= term.length; i++) {
        const [r0, b0] = [requests, bytes];
        const { status } = await client.request(`/${list}.json?Term=${encodeURIComponent(term.slice(0, i))}${system}`);
        if (status !== 200) throw new Error(`${list} ${term.slice(0, i)}: ${status}`);
        perKeystroke.push(requests - r0);
        if (requests > r0) responseBytes.push(bytes - b0);
        keystrokes++;
      }
    }
  }
  console.log(
    `typing: ${int(keystrokes)} keystrokes over 900 terms: at most ${Math.max(...perKeystroke)} request per keystroke (mean ${(perKeystroke.reduce((a, b) => a + b, 0) / keystrokes).toFixed(2)}), response median ${kb(quantile(responseBytes, 0.5))}, p95 ${kb(quantile(responseBytes, 0.95))}, max ${kb(Math.max(...responseBytes))}`,
  );
  console.log(
    `pasted term, worst case: 1 request of at most ${kb(index.max)} (the largest search or page file), after lookup.json`,
  );
  console.log(`tree at ${relative(process.cwd(), out)}`);
}

interface Run {
  seconds: number;
  rssMb: number;
  summary: string;
}

/** Flushes dirty pages (and the discards of deleted trees) so one run's writes do not slow the next. */
const settle = () => execFileSync('sync');

/** One CLI build in its own process, as a user runs it; `env` is added to the build's environment. */
function cliBuild(sources: string, out: string, env: Record<string, string> = {}): Run {
  settle();
  const started = performance.now();
  const result = spawnSync(process.execPath, ['lib/cli.js', 'build', '--sources', sources, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`build failed: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  // The last line (what was written, peak memory), and how each section was made.
  const summary = [lines.at(-1)!, ...lines.filter((l) => l.startsWith('sections: '))].join('\n                 ');
  const rss = /peak memory ([\d.]+) MB/.exec(summary);
  return { seconds, rssMb: Number(rss?.[1] ?? NaN), summary };
}

/**
 * The floor: the same files, in the same folders, written by plain fs in a
 * loop. They get the tree's own bytes, read beforehand: a virtual disk may
 * store a file of spaces far faster than JSON of the same size.
 */
function floor(tree: string, target: string): number {
  const files = fg.sync('**/*', { cwd: tree }).map((path) => [path, readFileSync(join(tree, path))] as const);
  settle();
  const started = performance.now();
  const made = new Set<string>();
  for (const [path, data] of files) {
    const file = join(target, path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, data);
  }
  return (performance.now() - started) / 1000;
}

function editAuthor(sources: string, line: number): void {
  const path = join(sources, 'author.csv');
  const lines = readFileSync(path, 'utf8').split('\n');
  lines[line] = lines[line]!.replace(/,(.*)$/, (_, text: string) => `,"${text.replace(/^"|"$/g, '')} (edited)"`);
  writeFileSync(path, lines.join('\n'));
}

async function buildBench(sizes: number[]): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  console.log(`machine: ${availableParallelism()} cores, node ${process.version}`);
  const rows: string[][] = [];
  const cleanup: string[] = []; // deleted after every timed run (see below)
  for (const authors of sizes) {
    const sources = tempDir('reflist-bench-src-');
    await writeSynthetic(sources, { authors, systems: 3, seed: 1 });
    // Every timed run writes into a new folder and nothing is deleted until
    // the end: on ext4, creating files right after deleting many is several
    // times slower (the inode allocator steps over recently freed inodes),
    // which once made one of two otherwise equal runs 5x slower than the other.
    const work = tempDir('reflist-bench-');
    const floors: number[] = [];
    const builds: Run[] = [];
    let out = '';
    for (let round = 0; round < (authors > 200_000 ? 1 : 3); round++) {
      out = join(work, `build-${round}`, 'dist');
      builds.push(cliBuild(sources, out));
      floors.push(floor(out, join(work, `floor-${round}`)));
    }
    const full = builds.reduce((a, b) => (a.seconds < b.seconds ? a : b));
    const floorSeconds = Math.min(...floors);
    // Run by run, build and floor meet the same disk; the medians of the pairs are steadier than the minimums.
    const paired = builds.map((b, i) => b.seconds / floors[i]!);
    const tree = treeStats(out, () => true);
    editAuthor(sources, 10);
    const first = cliBuild(sources, out);
    editAuthor(sources, 20);
    const steady = cliBuild(sources, out);
    const none = cliBuild(sources, out);
    console.log(`\n${int(authors)} authors: ${int(tree.files)} files, ${mb(tree.bytes)}`);
    console.log(
      `  full build     ${full.seconds.toFixed(2)} s, peak RSS ${full.rssMb.toFixed(0)} MB, ${int(Math.round(tree.files / full.seconds))} files/s`,
    );
    console.log(
      `  floor          ${floorSeconds.toFixed(2)} s (plain fs, the same files into the same folders): fastest build / fastest floor = ${(full.seconds / floorSeconds).toFixed(2)}`,
    );
    console.log(
      `  each round     build ${builds.map((b) => b.seconds.toFixed(2)).join(', ')} s; floor ${floors.map((f) => f.toFixed(2)).join(', ')} s; build / floor ${paired.map((r) => r.toFixed(2)).join(', ')} (median ${quantile(paired, 0.5).toFixed(2)})`,
    );
    for (const [name, run] of [
      ['1 author edited', first],
      ['another edited', steady],
      ['no change', none],
    ] as const) {
      console.log(
        `  ${name.padEnd(16)}${run.seconds.toFixed(2)} s = ${((100 * run.seconds) / full.seconds).toFixed(0)}% of full: ${run.summary}`,
      );
    }
    rows.push([
      int(authors),
      full.seconds.toFixed(2),
      full.rssMb.toFixed(0),
      int(tree.files),
      mb(tree.bytes),
      floorSeconds.toFixed(2),
      `${(full.seconds / floorSeconds).toFixed(2)} (rounds ${paired.map((r) => r.toFixed(2)).join(', ')})`,
      first.seconds.toFixed(2),
      steady.seconds.toFixed(2),
      none.seconds.toFixed(2),
    ]);
    cleanup.push(work, sources);
  }
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  const table = [
    `\`npm run bench -- build\`, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, node ${process.version}:`,
    '',
    '| authors | full s | peak RSS MB | files | bytes | floor s | build/floor | 1 edit s | next edit s | no change s |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
  if (rows.length === 2)
    table.push(
      '',
      `${rows[1]![0]} / ${rows[0]![0]} authors: full build ${(Number(rows[1]![1]) / Number(rows[0]![1])).toFixed(1)}× the time.`,
    );
  console.log(`\n${table.join('\n')}`);
  toDocs('build', table);
}

/** One CLI build of `cli` in its own process: wall time and peak RSS as the kernel counts them. */
function timedBuild(
  cli: string,
  sources: string,
  out: string,
  env: Record<string, string> = {},
): { seconds: number; rssMb: number } {
  settle();
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'reflist-ab %e %M', process.execPath, cli, 'build', '--quiet', '--sources', sources, '--out', out],
    { encoding: 'utf8', env: { ...process.env, ...env } },
  );
  const measured = /reflist-ab ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !measured) throw new Error(`build with ${cli} failed: ${result.stderr}`);
  return { seconds: Number(measured[1]), rssMb: Number(measured[2]) / 1024 };
}

/**
 * The writer thread against writing on the main thread (REFLIST_WRITER=main):
 * each round runs both arms (in turns) on a build into an empty folder, then
 * the first and the next edit rebuild; wall time and peak RSS per run.
 */
async function writerBench(authors: number, rounds: number): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  const arms = { thread: 'writer thread', main: 'main thread' } as const;
  const names = Object.keys(arms) as (keyof typeof arms)[];
  console.log(
    `machine: ${availableParallelism()} cores, node ${process.version}; ${int(authors)} authors, ${rounds} rounds`,
  );
  const sources = tempDir('reflist-writer-src-');
  await writeSynthetic(sources, { authors, systems: 3, seed: 1 });
  const work = tempDir('reflist-writer-work-'); // nothing deleted until the end (see buildBench)
  const cli = join(process.cwd(), 'lib/cli.js');
  type Runs = { full: number; fullRss: number; edit: number; next: number; editRss: number };
  const runs = Object.fromEntries(names.map((n) => [n, [] as Runs[]])) as Record<keyof typeof arms, Runs[]>;
  for (let round = 0; round < rounds; round++) {
    for (const arm of names.map((_, i) => names[(i + round) % names.length]!)) {
      const src = join(work, `${round}-${arm}-sources`);
      execFileSync('cp', ['-r', sources, src]);
      const out = join(work, `${round}-${arm}`, 'dist');
      const env: Record<string, string> = { REFLIST_WRITER: arm };
      const full = timedBuild(cli, src, out, env);
      editAuthor(src, 10);
      const edit = timedBuild(cli, src, out, env);
      editAuthor(src, 20);
      const next = timedBuild(cli, src, out, env);
      runs[arm].push({
        full: full.seconds,
        fullRss: full.rssMb,
        edit: edit.seconds,
        next: next.seconds,
        editRss: Math.max(edit.rssMb, next.rssMb),
      });
      console.log(
        `  round ${round + 1} ${arm.padEnd(6)}: full ${full.seconds.toFixed(2)} s, ${full.rssMb.toFixed(0)} MB; edit ${edit.seconds.toFixed(2)} s, next edit ${next.seconds.toFixed(2)} s, ${Math.max(edit.rssMb, next.rssMb).toFixed(0)} MB`,
      );
    }
  }
  const metrics = [
    ['full build into an empty folder, s', 'full'],
    ['its peak RSS, MB', 'fullRss'],
    ['first edit rebuild, s', 'edit'],
    ['next edit rebuild, s', 'next'],
    ["edit rebuilds' peak RSS, MB", 'editRss'],
  ] as const;
  const table = [
    `\`npm run bench -- writer --authors ${authors} --rounds ${rounds}\`, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, node ${process.version}. Medians; a saving is 1 − arm / baseline, the median of the rounds' pairs:`,
    '',
    `| measure | ${names.map((n) => arms[n]).join(' | ')} | the thread saves |`,
    `|---|${names.map(() => '---|').join('')}---|`,
  ];
  const saving = (on: keyof typeof arms, off: keyof typeof arms, key: keyof Runs) => {
    const ratios = runs[on].map((r, i) => r[key] / runs[off][i]![key]);
    return `${(100 * (1 - median(ratios))).toFixed(1)} % (rounds ${ratios.map((r) => (100 * (1 - r)).toFixed(0)).join(', ')})`;
  };
  for (const [name, key] of metrics) {
    const digits = key.endsWith('Rss') ? 0 : 2;
    table.push(
      `| ${name} | ${names.map((n) => median(runs[n].map((r) => r[key])).toFixed(digits)).join(' | ')} | ${saving('thread', 'main', key)} |`,
    );
  }
  console.log(`\n${table.join('\n')}`);
  toDocs('writer', table);
  for (const dir of [sources, work]) rmSync(dir, { recursive: true, force: true });
}

/** This tree (B) against commit `rev` (A), paired round by round. */
async function abBench(rev: string, authors: number, rounds: number): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  const { dir: clone, cli, title } = cliAt(rev);
  console.log(`A: ${title}`);
  console.log(
    `B: this tree (${execFileSync('git', ['log', '-1', '--format=%h'], { encoding: 'utf8' }).trim()}${execFileSync('git', ['status', '--porcelain', 'src'], { encoding: 'utf8' }) ? ', with uncommitted changes' : ''})`,
  );
  const clis = { A: cli, B: join(process.cwd(), 'lib/cli.js') };
  console.log(
    `machine: ${availableParallelism()} cores, node ${process.version}; ${int(authors)} authors, ${rounds} rounds`,
  );
  const sources = tempDir('reflist-ab-src-');
  await writeSynthetic(sources, { authors, systems: 3, seed: 1 });
  const work = tempDir('reflist-ab-work-'); // nothing deleted until the end (see buildBench)
  type Runs = { full: number; rss: number; edit: number; next: number; editRss: number };
  const runs: Record<'A' | 'B', Runs[]> = { A: [], B: [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const src = join(work, `${round}-${side}-sources`);
      execFileSync('cp', ['-r', sources, src]);
      const out = join(work, `${round}-${side}`, 'dist');
      const full = timedBuild(clis[side], src, out);
      editAuthor(src, 10);
      const edit = timedBuild(clis[side], src, out);
      editAuthor(src, 20);
      const next = timedBuild(clis[side], src, out);
      runs[side].push({
        full: full.seconds,
        rss: full.rssMb,
        edit: edit.seconds,
        next: next.seconds,
        editRss: Math.max(edit.rssMb, next.rssMb),
      });
      console.log(
        `  round ${round + 1} ${side}: full ${full.seconds.toFixed(2)} s, ${full.rssMb.toFixed(0)} MB; edit ${edit.seconds.toFixed(2)} s, next edit ${next.seconds.toFixed(2)} s, ${Math.max(edit.rssMb, next.rssMb).toFixed(0)} MB`,
      );
    }
  }
  const metrics = [
    ['full build, s', 'full'],
    ['full build peak RSS, MB', 'rss'],
    ['first edit rebuild, s', 'edit'],
    ['next edit rebuild, s', 'next'],
    ['edit rebuild peak RSS, MB', 'editRss'],
  ] as const;
  const table = [
    `\`npm run bench -- ab --against ${rev} --authors ${authors} --rounds ${rounds}\`, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, node ${process.version}. A is ${rev}, B this tree:`,
    '',
    "| measure | A median | B median | B / A, median of the rounds' ratios | B / A by round |",
    '|---|---|---|---|---|',
  ];
  for (const [name, key] of metrics) {
    const ratios = runs.B.map((b, i) => b[key] / runs.A[i]![key]);
    const digits = key === 'rss' || key === 'editRss' ? 0 : 2;
    table.push(
      `| ${name} | ${median(runs.A.map((r) => r[key])).toFixed(digits)} | ${median(runs.B.map((r) => r[key])).toFixed(digits)} | ${median(ratios).toFixed(3)} | ${ratios.map((r) => r.toFixed(2)).join(', ')} |`,
    );
  }
  console.log(`\n${table.join('\n')}`);
  toDocs('ab', table);
  for (const dir of [clone, sources, work]) rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Milliseconds to read every source of `sources` into tables, in a fresh process; `times` reads. */
function parseTimes(sources: string, times: number): number[] {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench.ts', 'read-sources', '--sources', sources, '--rounds', String(times)],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`reading failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as number[];
}

/** In this process: reads the sources `rounds` times and prints the milliseconds of each read as JSON. */
function readSourcesTimes(sources: string, rounds: number): void {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const reads = sourceFiles(loadDeclaration(sources).declaration)
      .filter(({ file }) => existsSync(join(sources, file)))
      .map(({ file, delimiter }) => readTableFile(file, join(sources, file), undefined, delimiter));
    ms.push(performance.now() - started);
    const errors = reads.flatMap((r) => r.errors);
    if (errors.length > 0 || !reads.some((r) => r.table.file === 'author.csv'))
      throw new Error(`unexpected read: ${errors.length} errors`);
  }
  console.log(JSON.stringify(ms));
}

/** The time to read all the sources of a corpus alone, each read in one of `rounds` fresh processes, 3 reads each. */
async function parserBench(authors: number, rounds: number): Promise<void> {
  console.log(`machine: ${availableParallelism()} cores, node ${process.version}`);
  const sources = tempDir('reflist-bench-src-');
  await writeSynthetic(sources, { authors, systems: 3, seed: 1 });
  const reads: number[] = [];
  for (let round = 0; round < rounds; round++) reads.push(...parseTimes(sources, 3));
  console.log(
    `reading all ${int(authors)}-author sources alone (csv-parse): median ${median(reads).toFixed(0)} ms of ${reads.length} reads`,
  );
  console.log(
    'the A/B against the hand-written parser: npm run bench -- parser at commit 7cc075b (docs/performance.md)',
  );
  rmSync(sources, { recursive: true, force: true });
}

/** A page over each kind of deploy: 20 requests before, 1,500 after, judged against both builds. */
async function deployBench(authors: number): Promise<void> {
  const sizes = { authors, descriptors: authors / 10, divisions: 20, categories: authors / 30 };
  const a = sourcesA(1, sizes);
  const b = sourcesB(a, 1, 7 / 3);
  console.log(
    `A: ${int(a.author.length)} authors, ${int(a.descriptor.length)} descriptors, ${int(a.category.length)} categories; B: ${int(b.author.length)}, ${int(b.descriptor.length)}, ${int(b.category.length)}`,
  );
  console.log(
    '| host | before: A / both / neither / errors | after: A / B / both / neither / errors | requests after | lookup.json reads after | failed reads after |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const host of ['swap', 'cached-manifest', 'overlay', 'stale-edge'] as const) {
    const rnd = mulberry32(7);
    const run = await deployRun({
      a,
      b,
      pageSize: 30,
      host,
      seed: 7,
      dir: tempDir('reflist-deploy-'),
      before: Array.from({ length: 20 }, () => randomRequest(rnd, a, b, 30)),
      after: Array.from({ length: 1500 }, () => randomRequest(rnd, a, b, 30)),
      client: async (baseUrl, fetch) => createLookupClient({ baseUrl, fetch }),
      serve: startServe,
    });
    const c = (t: Tally, keys: (keyof Tally['counts'])[]) => keys.map((k) => t.counts[k]).join(' / ');
    console.log(
      `| ${host} | ${c(run.before, ['A', 'both', 'neither', 'error'])} | ${c(run.after, ['A', 'B', 'both', 'neither', 'error'])} | ${run.requestsAfter} | ${run.manifestReadsAfter} | ${run.failedReadsAfter} |`,
    );
    for (const line of [...run.before.bad, ...run.after.bad]) console.log(`    e.g. ${line}`);
  }
}

/** The files an incremental build writes, links and removes after one author's text changes, one is added, one removed. */
async function writesBench(sizes: number[]): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  for (const authors of sizes) {
    const sources = tempDir('reflist-bench-src-');
    await writeSynthetic(sources, { authors, systems: 3, seed: 1 });
    const work = tempDir('reflist-bench-');
    const out = join(work, 'dist');
    const full = cliBuild(sources, out);
    console.log(`\n${int(authors)} authors: full build ${full.seconds.toFixed(2)} s`);
    const file = join(sources, 'author.csv');
    const steps: [string, () => void][] = [
      ['1 author edited', () => editAuthor(sources, 10)],
      [
        '1 author added',
        () => writeFileSync(file, readFileSync(file, 'utf8').replace(/\n?$/, `\n${authors * 10 + 7},"Zyxwv, Added"\n`)),
      ],
      [
        '1 author removed',
        () =>
          writeFileSync(
            file,
            readFileSync(file, 'utf8')
              .split('\n')
              .filter((_, i) => i !== 30)
              .join('\n'),
          ),
      ],
    ];
    for (const [name, change] of steps) {
      change();
      const run = cliBuild(sources, out);
      console.log(`  ${name.padEnd(17)}${run.seconds.toFixed(2)} s: ${run.summary}`);
    }
    rmSync(work, { recursive: true, force: true });
    rmSync(sources, { recursive: true, force: true });
  }
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    authors: { type: 'string' },
    rounds: { type: 'string' },
    sources: { type: 'string' },
    rows: { type: 'string' },
    against: { type: 'string' },
    docs: { type: 'boolean' },
    way: { type: 'string' },
  },
});
/** A declared list of `rows` institutions: what a user's own list of that size builds like. */
async function declaredBench(rows: number): Promise<void> {
  execFileSync(process.execPath, ['scripts/compile.mjs']);
  const sources = tempDir('reflist-declared-');
  writeDeclared(sources, rows);
  const out = join(tempDir('reflist-declared-out-'), 'dist');
  console.log(
    `machine: ${availableParallelism()} cores, node ${process.version}; ${rows.toLocaleString('en')} rows declared in reflist.config.json`,
  );
  const full = cliBuild(sources, out);
  const { files, bytes } = treeStats(out, () => true);
  console.log(
    `full build    ${full.seconds.toFixed(1)} s, peak RSS ${full.rssMb.toFixed(0)} MB, ${files.toLocaleString('en')} files, ${(bytes / 1e6).toFixed(1)} MB`,
  );
  const csv = readFileSync(join(sources, 'institution.csv'), 'utf8').replace('\nX-00001,', '\nX-00001,Edited ');
  writeFileSync(join(sources, 'institution.csv'), csv);
  const edit = cliBuild(sources, out);
  console.log(`edit rebuild  ${edit.seconds.toFixed(1)} s, peak RSS ${edit.rssMb.toFixed(0)} MB: ${edit.summary}`);
}

const which = positionals[0] ?? 'search';
if (which === 'search') await searchBench(Number(values.authors ?? 100_000));
else if (which === 'build') await buildBench((values.authors ?? '100000,1000000').split(',').map(Number));
else if (which === 'parser') await parserBench(Number(values.authors ?? 100_000), Number(values.rounds ?? 6));
else if (which === 'writer') await writerBench(Number(values.authors ?? 100_000), Number(values.rounds ?? 6));
else if (which === 'ab')
  await abBench(values.against ?? 'HEAD', Number(values.authors ?? 100_000), Number(values.rounds ?? 6));
else if (which === 'deploy') await deployBench(Number(values.authors ?? 3000));
else if (which === 'writes') await writesBench((values.authors ?? '100000,1000000').split(',').map(Number));
else if (which === 'declared') await declaredBench(Number(values.rows ?? 1_000_000));
else if (which === 'widgets') await widgetsBench();
else if (which === 'size')
  await sizeBench(
    {
      rows: (values.rows ?? '100000,1000000').split(',').map(Number),
      authors: Number(values.authors ?? 100_000),
      against: values.against ?? '17c080e',
    },
    toDocs,
  );
else if (which === 'cities') await citiesBench(toDocs);
else if (which === 'keys') await keysBench({ against: values.against ?? '536b582' }, toDocs);
else if (which === 'compress')
  await compressBench(Number(values.authors ?? 100_000), Number(values.rounds ?? 6), toDocs);
else if (which === 'scale')
  await scaleBench((values.rows ?? '1000000,2000000,5000000,10000000').split(',').map(Number), toDocs);
else if (which === 'store') await storeBench((values.rows ?? '1000000,10000000').split(',').map(Number));
else if (which === 'store-one') storeOne(values.sources!, values.way as 'objects' | 'columns');
else if (which === 'read-sources') readSourcesTimes(values.sources!, Number(values.rounds ?? 1));
else
  throw new Error(
    `unknown benchmark "${which}": expected search, build, ab, deploy, writes, declared, widgets, size, cities, keys, compress, scale or parser`,
  );
