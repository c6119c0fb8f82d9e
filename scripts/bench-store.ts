// npm run bench -- store [--rows N,N…]: what holding a list costs, the
// measure behind docs/architecture.md's "Memory: how a build stays bounded".
// The species list of the scale bench (scripts/sources/species.ts) held two
// ways, each size and way in a fresh process: as today's objects (the
// checked entries, then sorted in list order) and as columns (ids and levels
// in typed arrays, labels and folded keys as UTF-8 in two pools, list order
// by sorted runs of RUN items written to disk and merged). Objects are left
// out past 2,000,000 rows: their heap alone outgrows Node's default.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compareStrings, fold } from '../src/client/fold.js';
import { loadDeclaration } from '../src/config/load.js';
import { sectionsOf } from '../src/config/sections.js';
import { checkSources } from '../src/sources/check.js';
import { sortInOrder } from '../src/sources/model.js';
import { readRowsFile } from '../src/sources/read.js';
import { tempDir } from '../test/helpers.js';
import { int } from './format.js';
import { SPECIES_CONFIG, writeSpecies } from './sources/species.js';

/** Items a sorted run holds. */
const RUN = 1 << 20;
const OBJECTS_UP_TO = 2_000_000;

type Way = 'objects' | 'columns';

/** Milliseconds since the start, heap after collecting, resident memory: one stage's figures. */
interface Stage {
  what: string;
  ms: number;
  heap: number;
  rss: number;
}

function stages(): { mark: (what: string) => void; all: Stage[] } {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const started = performance.now();
  const all: Stage[] = [];
  return {
    all,
    mark: (what) => {
      gc();
      gc();
      const { heapUsed, rss } = process.memoryUsage();
      all.push({ what, ms: performance.now() - started, heap: heapUsed, rss });
    },
  };
}

/** Today's model: the species list alone checked into entries, then sorted in its declared order. */
function asObjects(dir: string, mark: (what: string) => void): number {
  const only = mkdtempSync(join(tmpdir(), 'reflist-store-'));
  try {
    symlinkSync(join(dir, 'species.csv'), join(only, 'species.csv'));
    writeFileSync(
      join(only, 'reflist.config.json'),
      JSON.stringify({ lists: { species: SPECIES_CONFIG.lists.species } }),
    );
    const { declaration } = loadDeclaration(only);
    const { items } = checkSources(only, declaration, sectionsOf(declaration));
    const entries = items['species'] ?? [];
    mark('read and checked');
    sortInOrder(entries, declaration.lists[0]?.order);
    mark('in list order');
    return entries.length;
  } finally {
    rmSync(only, { recursive: true, force: true });
  }
}

/** A growable UTF-8 pool of strings, each from offsets[i] to offsets[i + 1]. */
class Pool {
  bytes = Buffer.allocUnsafe(1 << 24);
  length = 0;
  offsets = new Uint32Array(1 << 20);
  count = 0;

  push(s: string): void {
    if (this.length + 3 * s.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(this.bytes.length * 2);
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    if (this.count + 2 > this.offsets.length) this.offsets = grownArray(this.offsets);
    this.length += this.bytes.write(s, this.length);
    this.offsets[++this.count] = this.length;
  }

  at(i: number): string {
    return this.bytes.toString('utf8', this.offsets[i], this.offsets[i + 1]);
  }
}

function grownArray<T extends Float64Array | Int32Array | Uint32Array>(a: T): T {
  const grown = new (a.constructor as new (n: number) => T)(a.length * 2);
  grown.set(a);
  return grown;
}

/** Columns, then list order by sorted runs on disk merged: the columns' cost and the sort's. */
function asColumns(dir: string, mark: (what: string) => void): number {
  let ids = new Float64Array(1 << 20);
  let levels = new Int32Array(1 << 20);
  const [texts, keys] = [new Pool(), new Pool()];
  let n = 0;
  readRowsFile('species.csv', join(dir, 'species.csv'), (header) => {
    const [id, canonical, authorship, level] = ['id', 'canonical', 'authorship', 'rank_level'].map((c) =>
      header.indexOf(c),
    ) as [number, number, number, number];
    return (cells) => {
      if (n === ids.length) [ids, levels] = [grownArray(ids), grownArray(levels)];
      const text = `${cells[canonical]} ${cells[authorship]}`;
      ids[n] = Number(cells[id]);
      levels[n++] = Number(cells[level]);
      texts.push(text);
      keys.push(fold(text));
    };
  });
  mark(`read (pools ${int(Math.round(texts.length / 1e6))} + ${int(Math.round(keys.length / 1e6))} MB)`);
  // The declared order (level), then list order: the folded key, the text, the id.
  type Head = { i: number; key: string };
  const compare = (a: Head, b: Head) =>
    levels[a.i]! - levels[b.i]! ||
    compareStrings(a.key, b.key) ||
    compareStrings(texts.at(a.i), texts.at(b.i)) ||
    ids[a.i]! - ids[b.i]!;
  const runsDir = mkdtempSync(join(tmpdir(), 'reflist-runs-'));
  try {
    const runs: string[] = [];
    for (let lo = 0; lo < n; lo += RUN) {
      const run: Head[] = [];
      for (let i = lo; i < Math.min(n, lo + RUN); i++) run.push({ i, key: keys.at(i) });
      run.sort(compare);
      const path = join(runsDir, String(runs.length));
      writeFileSync(path, new Uint32Array(run.map((h) => h.i)));
      runs.push(path);
    }
    mark(`${runs.length} sorted runs written`);
    const cursors = runs.map((path) => ({
      fd: openSync(path, 'r'),
      buffer: new Uint32Array(1 << 16),
      end: 0,
      at: 0,
      pos: 0,
    }));
    const next = (c: (typeof cursors)[number]): Head | undefined => {
      if (c.at === c.end) {
        const read = readSync(c.fd, c.buffer, 0, c.buffer.byteLength, c.pos);
        [c.pos, c.end, c.at] = [c.pos + read, read / 4, 0];
        if (read === 0) return undefined;
      }
      const i = c.buffer[c.at++]!;
      return { i, key: keys.at(i) };
    };
    const heads = cursors.map(next);
    const order = new Uint32Array(n);
    for (let out = 0; out < n; out++) {
      let best = -1;
      for (let r = 0; r < heads.length; r++) {
        const head = heads[r];
        if (head && (best < 0 || compare(head, heads[best]!) < 0)) best = r;
      }
      order[out] = heads[best]!.i;
      heads[best] = next(cursors[best]!);
    }
    for (const c of cursors) closeSync(c.fd);
    mark('merged in list order');
  } finally {
    rmSync(runsDir, { recursive: true, force: true });
  }
  return n;
}

/** In this process: one way of one corpus, its stages as JSON. */
export function storeOne(dir: string, way: Way): void {
  const { mark, all } = stages();
  const items = way === 'objects' ? asObjects(dir, mark) : asColumns(dir, mark);
  console.log(JSON.stringify({ items, stages: all }));
}

const mbOf = (bytes: number) => `${int(Math.round(bytes / 1e6))} MB`;

export async function storeBench(sizes: number[]): Promise<void> {
  console.log('| rows | held as | stage | s | heap | resident | heap an item |');
  console.log('|---|---|---|---|---|---|---|');
  for (const rows of sizes) {
    const dir = tempDir('reflist-store-src-');
    await writeSpecies(dir, rows);
    for (const way of ['objects', 'columns'] as const) {
      if (way === 'objects' && rows > OBJECTS_UP_TO) continue;
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/bench.ts', 'store-one', '--sources', dir, '--way', way],
        { encoding: 'utf8', maxBuffer: 1 << 24 },
      );
      if (run.status !== 0) {
        console.log(
          `| ${int(rows)} | ${way} | failed: exit ${run.status}: ${run.stderr.trim().split('\n').at(-1)} | | | | |`,
        );
        continue;
      }
      const { items, stages: all } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        items: number;
        stages: Stage[];
      };
      for (const s of all)
        console.log(
          `| ${int(rows)} | ${way} | ${s.what} | ${(s.ms / 1000).toFixed(1)} | ${mbOf(s.heap)} | ${mbOf(s.rss)} | ${Math.round(s.heap / items)} B |`,
        );
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
