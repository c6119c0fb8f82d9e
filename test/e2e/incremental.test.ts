// Incremental builds: only changed files are written, unchanged ones keep
// their mtime, and every tree equals a clean build of the same sources.
import { describe, expect, test } from 'vitest';
import { existsSync, lstatSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { build, buildTuned } from '../../src/build.js';
import { storedCompressed } from '../../src/client/paths.js';
import { writeTree } from '../../src/write/write.js';
import { openTree, writeTreeThreaded } from '../../src/write/threaded.js';
import { PRESETS } from '../../src/config/preset.js';
import { VALID } from '../fixtures/valid.js';
import { pastMtimes, snapshotTree, tempDir, writeSources } from '../helpers.js';

function mtimes(root: string): Map<string, number> {
  return new Map([...snapshotTree(root).keys()].map((path) => [path, statSync(join(root, path)).mtimeMs]));
}

const EDITS = [
  { ...VALID, 'author.csv': VALID['author.csv']!.replace('Smith, John', 'Smith, Johnny') },
  {
    ...VALID,
    'author.csv': VALID['author.csv']!.replace('Smith, John', 'Smith, Johnny'),
    'descriptor.csv': 'id,text\n1,Colour\n2,Shape\n3,Size\n',
  },
  { ...VALID, 'descriptor.csv': 'id,text\n1,Colour\n2,Shape\n3,Size\n' },
  VALID,
];

describe('an incremental build', () => {
  test('writes nothing when nothing changed', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    await build({ sources, out, pageSize: 2 });
    const [before, link] = [mtimes(out), readlinkSync(out)];
    await pastMtimes(before.values());
    const report = await build({ sources, out, pageSize: 2 });
    expect(report).toMatchObject({ unchanged: true, written: 0, copied: 0, removed: 0 });
    expect(mtimes(out)).toEqual(before);
    expect(readlinkSync(out)).toBe(link);
  });

  test('rewrites exactly the files whose content changed, and equals a clean build', async () => {
    const sources = tempDir();
    const out = join(tempDir(), 'dist');
    writeSources(sources, VALID);
    await build({ sources, out, pageSize: 2 });
    for (const edit of EDITS) {
      const [beforeFiles, beforeTimes] = [snapshotTree(out), mtimes(out)];
      await pastMtimes(beforeTimes.values());
      writeSources(sources, edit);
      const report = await build({ sources, out, pageSize: 2 });
      const clean = join(tempDir(), 'clean');
      await build({ sources, out: clean, pageSize: 2 });
      const after = snapshotTree(out);
      expect(after).toEqual(snapshotTree(clean));
      const changed = [...after].filter(([path, bytes]) => beforeFiles.get(path) !== bytes).map(([path]) => path);
      const touched = [...mtimes(out)].filter(([path, t]) => beforeTimes.get(path) !== t).map(([path]) => path);
      expect(touched.sort()).toEqual(changed.sort());
      expect(report.written).toBe(changed.length);
      expect(report.removed).toBe([...beforeFiles.keys()].filter((path) => !after.has(path)).length);
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThan(after.size / 2);
    }
  });

  test.each([
    ['in this thread', writeTree],
    ['in a writer thread', writeTreeThreaded],
  ])(
    'the first rebuild (%s) links every file it keeps from the served tree, and the next links what the spare lags behind on',
    async (_how, write) => {
      const out = join(tempDir(), 'dist');
      const [a, b] = [join(dirname(out), '.reflist/dist.a'), join(dirname(out), '.reflist/dist.b')];
      const files = Array.from({ length: 2000 }, (_, i): [string, string] => [
        `author/page/${i % 50}/${i}.json`,
        `{"n":${i}}`.repeat(300),
      ]);
      await write(out, files, undefined, { compress: true });
      expect(readlinkSync(out)).toBe('.reflist/dist.a');
      const second = [...files.slice(1), ['author.json', '{}']] as [string, string][];
      const report = await write(out, second, undefined, { compress: true });
      expect(report).toMatchObject({ written: 1, removed: 3 });
      expect(report.copied).toBe(3 * 1999);
      expect(readlinkSync(out)).toBe('.reflist/dist.b');
      const tree = snapshotTree(b);
      expect(tree.size).toBe(3 * 1999 + 1); // each page with its .gz and .br
      for (const path of tree.keys())
        if (path !== 'author.json') expect(statSync(join(b, path)).ino).toBe(statSync(join(a, path)).ino);
      // The spare (dist.a) lags behind by author.json alone; the first file is gone from it.
      const third = second.map(([path, text]): [string, string] => [path, path === files[1]![0] ? `${text} ` : text]);
      expect(await write(out, third, undefined, { compress: true })).toMatchObject({
        written: 3,
        copied: 1,
        removed: 0,
      });
      expect(readlinkSync(out)).toBe('.reflist/dist.a');
      expect([...snapshotTree(a).keys()].sort()).toEqual(
        third.flatMap(([path]) => (path === 'author.json' ? [path] : [path, `${path}.br`, `${path}.gz`])).sort(),
      );
    },
  );

  test.each([
    ['in this thread', async (out: string, files: Iterable<[string, string]>) => writeTree(out, files)],
    ['in a writer thread', writeTreeThreaded],
  ])(
    'a build that stops half-way (%s) leaves the served tree as it was, and the next build recovers',
    async (_how, write) => {
      const sources = writeSources(tempDir(), VALID);
      const out = join(tempDir(), 'dist');
      await build({ sources, out, pageSize: 2 });
      const before = snapshotTree(out);
      function* broken(): Generator<[string, string]> {
        yield ['author.json', '{"total":0,"items":[]}'];
        yield ['new/file.json', '{}'];
        throw new Error('disk full');
      }
      await expect(write(out, broken())).rejects.toThrow('disk full');
      expect(snapshotTree(out)).toEqual(before);
      writeSources(sources, EDITS[0]!);
      await build({ sources, out, pageSize: 2 });
      const clean = join(tempDir(), 'clean');
      await build({ sources, out: clean, pageSize: 2 });
      expect(snapshotTree(out)).toEqual(snapshotTree(clean));
    },
  );

  test('a build refuses a folder another build is writing, and leaves it as it was', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    await build({ sources, out, pageSize: 2 });
    const before = snapshotTree(out);
    const lock = join(dirname(out), '.reflist/dist.lock');
    writeFileSync(lock, '');
    await expect(build({ sources, out, pageSize: 3 })).rejects.toThrow(/another build is writing/);
    expect(existsSync(lock)).toBe(true);
    expect(snapshotTree(out)).toEqual(before);
  });

  test('a build whose sources fail lets go of the folder, so the next build runs', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    await build({ sources, out, pageSize: 2 });
    writeSources(sources, { 'author.csv': 'id,text\nx,Nobody\n' });
    await expect(build({ sources, out, pageSize: 3 })).rejects.toThrow();
    expect(existsSync(join(dirname(out), '.reflist/dist.lock'))).toBe(false);
    writeSources(sources, VALID);
    await expect(build({ sources, out, pageSize: 3 })).resolves.toMatchObject({ unchanged: false });
  });

  test('a render that fails on its first file, while the writer thread is still starting, lets go of the folder', async () => {
    const out = join(tempDir(), 'dist');
    // Outputs whose first one fails, as a render whose first section fails its checks does.
    const failing = (): Iterable<[string, string]> => ({
      [Symbol.iterator]: () => ({
        next: () => {
          throw new Error('the first section failed its checks');
        },
      }),
    });
    for (let i = 0; i < 3; i++) {
      const tree = openTree(out);
      await expect(tree.write(failing())).rejects.toThrow('the first section failed its checks');
      await tree.abort(); // as a build does after any failure: it settles
      expect(existsSync(join(dirname(out), '.reflist/dist.lock'))).toBe(false);
    }
    await expect(writeTreeThreaded(out, [['a.json', '{}']])).resolves.toMatchObject({ unchanged: false });
  });

  test('turns a plain output folder from an older build into a generation', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    writeSources(out, { 'lookup.json': '{}', 'stale.json': '{}' });
    await build({ sources, out, pageSize: 2 });
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(snapshotTree(out).has('stale.json')).toBe(false);
  });
});

describe('what a rebuild reads and renders', () => {
  const authors = (n: number, edited = -1) =>
    'id,text\n' +
    Array.from(
      { length: n },
      (_, i) => `${i + 1},"Author ${i}${i === edited ? ' (edited)' : ''}, Given ${i % 7}"`,
    ).join('\n') +
    '\n';
  const search = { leafBytes: 300, fileBytes: 600, pagesBytes: 2000 };

  test('keeps the sections whose sources did not change, and edits a list in place from the records that changed', async () => {
    const sources = writeSources(tempDir(), { ...VALID, 'author.csv': authors(400) });
    const out = join(tempDir(), 'dist');
    expect((await buildTuned({ sources, out, pageSize: 5, search })).sections).toEqual({
      country: 'rendered',
      author: 'rendered',
      division: 'rendered',
      descriptor: 'rendered',
    });
    writeSources(sources, { 'author.csv': authors(400, 123) });
    const report = await buildTuned({ sources, out, pageSize: 5, search });
    expect(report.sections).toEqual({ country: 'kept', author: 'edited', division: 'kept', descriptor: 'kept' });
    const clean = join(tempDir(), 'clean');
    await buildTuned({ sources, out: clean, pageSize: 5, search });
    expect(snapshotTree(out)).toEqual(snapshotTree(clean));
    expect(report.written).toBeLessThan(40);
  });

  test('updates a list in place from all its items when more than its own file changed', async () => {
    const sources = writeSources(tempDir(), {
      ...VALID,
      'author.csv': authors(400),
      'author_count.csv': 'system,id,count\ngbif,5,3\n',
    });
    const out = join(tempDir(), 'dist');
    await buildTuned({ sources, out, pageSize: 5, search });
    writeSources(sources, { 'author.csv': authors(400, 7), 'author_count.csv': 'system,id,count\ngbif,5,4\n' });
    expect((await buildTuned({ sources, out, pageSize: 5, search })).sections['author']).toBe('updated');
    writeSources(sources, { 'author.csv': authors(401) });
    expect((await buildTuned({ sources, out, pageSize: 5, search })).sections['author']).toBe('rendered');
  });

  test('indexes a list whole again when an edit leaves all its records within one search file', async () => {
    const descriptors = (texts: string[]) => 'id,text\n' + texts.map((t, i) => `${i},"${t}"`).join('\n') + '\n';
    const sources = writeSources(tempDir(), {
      ...VALID,
      'descriptor.csv': descriptors(['Smith Smith Smith', 'Smith', 'हिन्दी Thor 😀']),
    });
    const out = join(tempDir(), 'dist');
    const tiny = { leafBytes: 60, fileBytes: 0, pagesBytes: 0 };
    await buildTuned({ sources, out, pageSize: 1, search: tiny });
    writeSources(sources, { 'descriptor.csv': descriptors(['Smith x', 'Smith', 'Smith']) });
    await buildTuned({ sources, out, pageSize: 1, search: tiny });
    const clean = join(tempDir(), 'clean');
    await buildTuned({ sources, out: clean, pageSize: 1, search: tiny });
    expect(snapshotTree(out)).toEqual(snapshotTree(clean));
  });

  test('reports the rows of every list on a rebuild, nested lists included, whether their section was kept or made again', async () => {
    const { config, sources: files } = PRESETS.example;
    const sources = writeSources(tempDir(), {
      'reflist.config.json': JSON.stringify(config),
      ...Object.fromEntries(files.map((f) => [f.file, f.text])),
    });
    const out = join(tempDir(), 'dist');
    const first = await build({ sources, out });
    expect(first.rows).toEqual({
      country: 4,
      institution: 5,
      countryInstitution: 5,
      family: 3,
      genus: 6,
      genusSpecies: 8,
      species: 8,
      collection: 2,
    });
    const unchanged = await build({ sources, out });
    expect(unchanged.unchanged).toBe(true);
    expect(unchanged.rows).toEqual(first.rows);
    writeSources(sources, {
      'country.csv': 'code,name\nDE,Germany\nFR,France\nJP,Japan\nUS,United States\nAT,Austria\n',
    });
    const one = await build({ sources, out });
    expect(one.sections).toMatchObject({ country: 'rendered', family: 'kept' });
    expect(one.rows).toEqual({ ...first.rows, country: 5 });
  });

  test('keeps a section with a paged list under a parent as served, and renders it whole when one of its sources changes', async () => {
    const config = {
      lists: {
        country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole' },
        city: {
          parent: { list: 'country', column: 'country' },
          label: 'name',
          fields: { population: 'integer' },
          order: ['-population'],
        },
        language: { label: 'name' },
      },
    };
    const cities = (extra = '') =>
      `id,name,country,population\n1,Wien,AT,1897491\n2,Graz,AT,291072\n3,Bern,CH,134591\n${extra}`;
    const sources = writeSources(tempDir(), {
      'reflist.config.json': JSON.stringify(config),
      'country.csv': 'code,name\nAT,Austria\nCH,Switzerland\n',
      'city.csv': cities(),
      'language.csv': 'id,name\n1,German\n',
    });
    const out = join(tempDir(), 'dist');
    const clean = async () => {
      const dir = join(tempDir(), 'clean');
      await buildTuned({ sources, out: dir, pageSize: 1, search });
      return snapshotTree(dir);
    };
    await buildTuned({ sources, out, pageSize: 1, search });
    writeSources(sources, { 'language.csv': 'id,name\n1,German\n2,French\n' });
    // lookup.json is written anew: it keeps what it says of the kept section's paged list.
    expect((await buildTuned({ sources, out, pageSize: 1, search })).sections).toEqual({
      country: 'kept',
      language: 'rendered',
    });
    expect(snapshotTree(out)).toEqual(await clean());
    writeSources(sources, { 'city.csv': cities('4,Linz,AT,210165\n') });
    expect((await buildTuned({ sources, out, pageSize: 1, search })).sections).toEqual({
      country: 'rendered',
      language: 'kept',
    });
    expect(snapshotTree(out)).toEqual(await clean());
    expect(JSON.parse(readFileSync(join(out, 'country/AT/city/page/3.json'), 'utf8'))).toEqual({
      total: 3,
      items: [{ id: 4, text: 'Linz', population: 210165 }],
    });
  });

  test('reads a changed file whole, and reports its errors, when the changed records are not plain edits', async () => {
    const sources = writeSources(tempDir(), { ...VALID, 'author.csv': authors(400) });
    const out = join(tempDir(), 'dist');
    await buildTuned({ sources, out, pageSize: 5, search });
    const before = snapshotTree(out);
    writeSources(sources, { 'author.csv': authors(400).replace('\n7,', '\n8,') });
    await expect(buildTuned({ sources, out, pageSize: 5, search })).rejects.toThrow(
      /author\.csv:9: duplicate id 8 \(first on line 8\)/,
    );
    expect(snapshotTree(out)).toEqual(before);
  });
});

describe('--compress', () => {
  test('writes .gz and .br siblings that decompress to the file, compressed again only when it changed', async () => {
    const sources = writeSources(tempDir(), VALID);
    const out = join(tempDir(), 'dist');
    await build({ sources, out, pageSize: 2, compress: true });
    const file = (p: string) => readFileSync(join(out, p));
    expect(gunzipSync(file('lookup-client.js.gz'))).toEqual(file('lookup-client.js'));
    expect(brotliDecompressSync(file('lookup-client.js.br'))).toEqual(file('lookup-client.js'));
    // A sibling is a .gz beside its file; the index's own files are stored compressed (.json.gz) and have none.
    const files = new Set(snapshotTree(out).keys());
    const siblings = [...files].filter((p) => p.endsWith('.gz') && files.has(p.slice(0, -3)));
    expect(siblings.length).toBeGreaterThan(0);
    expect([...files].filter((p) => /\.json\.gz\.(gz|br)$/.test(p))).toEqual([]);
    for (const gz of siblings) expect(gunzipSync(file(gz))).toEqual(file(gz.slice(0, -3)));
    const before = mtimes(out);
    await pastMtimes(before.values());
    writeSources(sources, EDITS[0]!);
    const report = await build({ sources, out, pageSize: 2, compress: true });
    const touched = [...mtimes(out)].filter(([p, t]) => before.get(p) !== t).map(([p]) => p);
    expect(touched.filter((p) => p.endsWith('.gz') && !storedCompressed(p)).map((p) => p.slice(0, -3))).toEqual(
      touched.filter((p) => !/\.(gz|br)$/.test(p) && siblings.includes(`${p}.gz`)),
    );
    expect(report.written).toBe(touched.length);
  });
});
