// npm run bench -- scale [--rows N,N…]: how far a build goes, over a corpus
// shaped like the GBIF Backbone Taxonomy's scientific names
// (scripts/sources/species.ts: a family list, every species a page at a
// time, and the species of each family under it), at 1, 2, 5 and 10 million
// species by default. For each size, one table row: the full build's wall
// time and peak memory, an edit rebuild's (one species' label changed in the
// CSV), the tree's files and bytes, its fullest folder, its internal bytes
// (Id buckets, search files, result pages) against its public ones,
// lookup.json raw and gzipped, and what typing costs: real-looking queries
// (genera, `genus epithet`, a misspelt genus) typed a key at a time through
// the client the tree carries, a fresh visit each (bench-keys.ts's
// typeQueries), as requests a keystroke (the most, the share making at most
// one and at most two) and bytes a keystroke as stored (median, p95, most).
// A build that fails (out of memory, say) is a row saying so, with its exit
// code, how long it ran and the last line of its stderr, and the bench goes
// on with the next size. The sources are written once a size and removed,
// with the tree, before the next.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism, constants, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { indexEntry, type Index } from '../src/write/diff.js';
import { measureTree } from '../src/write/fit.js';
import { tempDir } from '../test/helpers.js';
import { typeQueries } from './bench-keys.js';
import { editSpecies, speciesSizes, writeSpecies } from './sources/species.js';
import { int, kb, mb, pct, quantile } from './format.js';

/**
 * What people type into a species picker: genera (the large real ones the
 * corpus always has), `genus epithet`, once out of order, and genera with a
 * typo (after `|`, as bench-keys.ts marks them). The corpus adds `genus
 * epithet` names of its own, so that some multi-word queries always find
 * their species.
 */
const QUERIES = [
  'quercus',
  'carex',
  'astragalus',
  'rhododendron',
  'euphorbia',
  'bulbophyllum',
  'drosophila',
  'lasioglossum',
  'puma',
  'quercus alba',
  'carex nigra',
  'salix alba',
  'rosa canina',
  'puma concolor',
  'felis catus',
  'pinus sylvestris',
  'viola tricolor',
  'alba quercus',
  '|qeurcus',
  '|astragalsu',
  '|euphrobia',
  '|rhododendorn',
  '|bulbophylum robusta',
];

interface Run {
  ok: boolean;
  seconds: number;
  rssMb: number;
  /** The exit code, and the signal that ended it, if one did. */
  exit: string;
  /** The last line of stderr (V8's FATAL ERROR line, when it printed one). */
  last: string;
  /** What the build says it made of each list (`lists: …`). */
  lists: string;
}

/**
 * The package as compiled now, copied (lib/, demo/, package.json; its
 * node_modules linked): other people's compiles in this working tree during a
 * long run neither change the CLI between sizes nor empty lib/ under a build.
 */
function privateCli(): { dir: string; cli: string } {
  for (let attempt = 1; ; attempt++) {
    execFileSync(process.execPath, ['scripts/compile.mjs']);
    const dir = tempDir('reflist-scale-cli-');
    try {
      for (const path of ['lib', 'demo', 'package.json']) cpSync(path, join(dir, path), { recursive: true });
      symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
      if (['lib/cli.js', 'lib/write-worker.js', 'lib/tree/lookup-client.js'].every((f) => existsSync(join(dir, f))))
        return { dir, cli: join(dir, 'lib/cli.js') };
    } catch (e) {
      if (attempt === 3) throw e;
    }
    rmSync(dir, { recursive: true, force: true });
    if (attempt === 3) throw new Error('lib/ was emptied by another compile three times while it was copied');
  }
}

const signalName = (n: number) =>
  Object.entries(constants.signals).find(([, number]) => number === n)?.[0] ?? `signal ${n}`;

/** One CLI build in its own process; peak memory as the build reports it, else as the kernel counted it. */
function build(cli: string, sources: string, out: string): Run {
  execFileSync('sync'); // one run's writes do not slow the next
  const started = performance.now();
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'reflist-scale %M', process.execPath, cli, 'build', '--sources', sources, '--out', out],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const seconds = (performance.now() - started) / 1000;
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  const kernelKb = Number(/^reflist-scale (\d+)$/m.exec(result.stderr)?.[1] ?? NaN);
  const signal = /^Command terminated by signal (\d+)$/m.exec(result.stderr)?.[1];
  const own = lines.filter(
    (l) => !/^(reflist-scale \d+|Command (terminated by signal|exited with non-zero status) .*)$/.test(l),
  );
  const reported = /peak memory ([\d.]+) MB/.exec(result.stdout);
  const status = result.status ?? -1;
  return {
    ok: status === 0,
    seconds,
    rssMb: reported ? Number(reported[1]) : kernelKb / 1024,
    exit: signal ? `exit ${status} (${signalName(Number(signal))})` : `exit ${status}`,
    last: own.filter((l) => l.includes('FATAL ERROR')).at(-1) ?? own.at(-1) ?? (result.error?.message || ''),
    lists: /^lists: (.*)$/m.exec(result.stdout)?.[1] ?? '',
  };
}

/** Every file of the tree at `out` (through its link) with its size: the writer's index, read back from disk. */
function indexOf(out: string): Index {
  const root = realpathSync(out);
  const index: Index = new Map();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = prefix + entry.name;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${path}/`);
      else index.set(path, indexEntry('', statSync(join(dir, entry.name)).size));
    }
  };
  walk(root, '');
  return index;
}

/** The tree's files and bytes, its fullest folder, its internal and public bytes, lookup.json raw and gzipped. */
function measure(out: string) {
  const size = measureTree(indexOf(out));
  let internal = 0;
  let visible = 0;
  for (const parts of Object.values(size.parts)) {
    for (const [part, tally] of Object.entries(parts)) {
      if (part === 'id' || part === 'search' || part === 'results') internal += tally.bytes;
      else if (part === 'public' || part === 'page') visible += tally.bytes;
    }
  }
  const manifest = readFileSync(join(out, 'lookup.json'));
  return {
    files: size.files,
    bytes: size.bytes,
    fullest: size.fullest,
    internal,
    visible,
    manifest: { raw: manifest.length, gz: gzipSync(manifest, { level: 9 }).length },
  };
}

/** The requests and bytes of every keystroke of QUERIES and of the corpus's own names, typed into `/species.json`. */
async function keystrokes(out: string, sample: readonly string[]) {
  const own = sample.filter((_, i) => i % 4 === 0).map((name) => name.toLowerCase());
  const ks = await typeQueries(out, 'species', [...QUERIES, ...own]);
  const bytes = ks.map((k) => k.bytes);
  const reading = ks.filter((k) => k.requests > 0).map((k) => k.bytes);
  const three = (xs: number[]) => `${kb(quantile(xs, 0.5))} / ${kb(quantile(xs, 0.95))} / ${kb(Math.max(0, ...xs))}`;
  return {
    count: ks.length,
    most: Math.max(0, ...ks.map((k) => k.requests)),
    atMostOne: pct(ks.filter((k) => k.requests <= 1).length, ks.length),
    atMostTwo: pct(ks.filter((k) => k.requests <= 2).length, ks.length),
    bytes: three(bytes),
    reading: three(reading),
  };
}

const HEADER = [
  '| rows | species.csv | full build s | peak MB | edit rebuild s | peak MB | files | bytes | fullest folder, entries | internal / public bytes | lookup.json raw / gzipped | keystrokes | requests, most | ≤ 1 request | ≤ 2 requests | bytes, every keystroke: median / p95 / most | bytes, keystrokes that read |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];

const failed = (what: string, run: Run) =>
  `${what} failed: ${run.exit} after ${run.seconds.toFixed(1)} s, ${int(Math.round(run.rssMb))} MB: ${run.last.replaceAll('|', '\\|')}`;

/** One size: its sources written, built, measured, typed into, edited and built again; its table row. */
async function scaleRow(cli: string, rows: number): Promise<string> {
  const sources = tempDir('reflist-scale-src-');
  const work = tempDir('reflist-scale-');
  try {
    let started = performance.now();
    const corpus = await writeSpecies(sources, rows, 1);
    const csv = statSync(join(sources, 'species.csv')).size;
    console.log(
      `${int(rows)} rows: species.csv ${mb(csv)}, ${int(corpus.genera)} genera, ${int(corpus.families)} families, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const out = join(work, 'dist');
    const full = build(cli, sources, out);
    if (!full.ok) {
      console.log(`  ${failed('full build', full)}`);
      return `| ${int(rows)} | ${mb(csv)} | ${failed('build', full)} |`;
    }
    console.log(`  full build     ${full.seconds.toFixed(1)} s, peak ${int(Math.round(full.rssMb))} MB: ${full.lists}`);
    started = performance.now();
    const tree = measure(out);
    const typed = await keystrokes(out, corpus.sample);
    console.log(
      `  tree: ${int(tree.files)} files, ${mb(tree.bytes)}; typing: ${int(typed.count)} keystrokes (measured in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    const line = editSpecies(sources, Math.ceil(rows / 2));
    const edit = build(cli, sources, out);
    console.log(
      edit.ok
        ? `  edit rebuild   ${edit.seconds.toFixed(1)} s, peak ${int(Math.round(edit.rssMb))} MB: ${edit.lists} (row now ${line})`
        : `  ${failed('edit rebuild', edit)}`,
    );
    return `| ${[
      int(rows),
      mb(csv),
      full.seconds.toFixed(1),
      int(Math.round(full.rssMb)),
      edit.ok ? edit.seconds.toFixed(1) : failed('edit', edit),
      edit.ok ? int(Math.round(edit.rssMb)) : '',
      int(tree.files),
      mb(tree.bytes),
      `${tree.fullest.path || '/'} ${int(tree.fullest.entries)}`,
      `${mb(tree.internal)} / ${mb(tree.visible)}`,
      `${int(tree.manifest.raw)} / ${int(tree.manifest.gz)} B`,
      int(typed.count),
      String(typed.most),
      typed.atMostOne,
      typed.atMostTwo,
      typed.bytes,
      typed.reading,
    ].join(' | ')} |`;
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(sources, { recursive: true, force: true });
  }
}

export async function scaleBench(sizes: number[], toDocs: (name: string, lines: string[]) => void): Promise<void> {
  const bad = sizes.find((n) => !Number.isSafeInteger(n) || n < 1);
  if (bad !== undefined) throw new Error(`--rows: expected numbers of rows (1000000,2000000), got ${bad}`);
  const { dir, cli } = privateCli();
  console.log(
    `machine: ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB, node ${process.version} (heap limit ${int(getHeapStatistics().heap_size_limit / 1e6)} MB); the species corpus of scripts/sources/species.ts, seed 1`,
  );
  const table: string[] = [];
  try {
    for (const rows of sizes) {
      const { genera, authors, families } = speciesSizes(rows);
      console.log(
        `\n${int(rows)} rows: up to ${int(genera)} genera, ${int(authors)} authors, ${int(families)} families`,
      );
      table.push(await scaleRow(cli, rows));
      console.log(table.at(-1));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = [
    `\`npm run bench -- scale --rows ${sizes.join(',')}\`, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, node ${process.version}: a full build, an edit rebuild (one species' year changed), the tree, and ${QUERIES.length} queries and some of the corpus's own names typed a key at a time, a fresh visit each (bytes as stored):`,
    '',
    ...HEADER,
    ...table,
  ];
  console.log(`\n${lines.join('\n')}`);
  toDocs('scale', lines);
}
