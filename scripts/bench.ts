// Benchmarks, each printing the figures its issue names.
//
//   npm run bench -- search [--authors N]   the Term index on a generated corpus:
//       files and bytes of the index and of the whole tree, build time, the
//       per-visit load (lookup.json), requests and bytes per keystroke, the
//       worst response for a pasted term.
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import fg from 'fast-glob';
import { build } from '../src/build.js';
import { createLookupClient } from '../src/client/client.js';
import { fold } from '../src/client/fold.js';
import { tempDir } from '../test/helpers.js';
import { writeSynthetic } from './sources.js';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const int = (n: number) => n.toLocaleString('en-US');

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

async function searchBench(authors: number): Promise<void> {
  const sources = tempDir('reflist-bench-src-');
  const out = join(tempDir('reflist-bench-'), 'dist');
  const sizes = { authors, descriptors: authors / 5, divisions: authors / 200, categories: authors / 25, systems: 3, seed: 1 };
  await writeSynthetic(sources, sizes);
  console.log(`corpus: ${int(authors)} authors, ${int(sizes.descriptors)} descriptors, ${int(sizes.divisions)} divisions with ${int(sizes.categories)} categories, 3 systems`);
  const search = process.env['REFLIST_SEARCH'] ? JSON.parse(process.env['REFLIST_SEARCH']) : undefined;
  const report = await build({ sources, out, pageSize: 30, search });
  const rows = Object.values(report.rows).reduce((a, b) => a + b, 0);
  console.log(`build: ${(report.ms / 1000).toFixed(1)} s, ${int(report.files)} files, ${mb(report.bytes)}`);

  const index = treeStats(out, (p) => /^[a-z]+\/(search|pages)\//.test(p));
  for (const list of ['author', 'division', 'descriptor']) {
    const search = treeStats(out, (p) => p.startsWith(`${list}/search/`));
    const pages = treeStats(out, (p) => p.startsWith(`${list}/pages/`));
    console.log(`  ${list}: ${int(search.files)} search files, ${mb(search.bytes)}, largest ${kb(search.max)}; ${int(pages.files)} page files, ${mb(pages.bytes)}, largest ${kb(pages.max)}`);
  }
  const listRows = report.rows['author']! + report.rows['division']! + report.rows['category']! + report.rows['descriptor']!;
  console.log(`search index: ${int(index.files)} files (one per ${(listRows / index.files).toFixed(1)} rows of the searched lists), ${mb(index.bytes)}, ${index.over16k} files over 16 KB`);
  console.log(`whole tree: ${int(report.files)} files, ${mb(report.bytes)} (${int(rows)} source rows)`);
  const manifest = readFileSync(join(out, 'lookup.json'));
  console.log(`per-visit load (lookup.json): ${kb(manifest.length)}, ${kb(gzipSync(manifest).length)} gzipped`);

  // Type labels' word starts one character at a time through the client, counting requests and bytes.
  let requests = 0;
  let bytes = 0;
  const fetch = async (url: string) => {
    const path = url.slice('bench:/'.length);
    let text: string | undefined;
    try {
      text = readFileSync(join(out, path), 'utf8');
    } catch {
      text = undefined;
    }
    if (path !== 'lookup.json') (requests++, (bytes += text?.length ?? 0));
    return { ok: text !== undefined, text: async () => text ?? '' };
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
      const term = words.slice(Math.floor(random() * words.length)).join(' ').slice(0, 14);
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
  console.log(`typing: ${int(keystrokes)} keystrokes over 900 terms: at most ${Math.max(...perKeystroke)} request per keystroke (mean ${(perKeystroke.reduce((a, b) => a + b, 0) / keystrokes).toFixed(2)}), response median ${kb(quantile(responseBytes, 0.5))}, p95 ${kb(quantile(responseBytes, 0.95))}, max ${kb(Math.max(...responseBytes))}`);
  console.log(`pasted term, worst case: 1 request of at most ${kb(index.max)} (the largest search or page file), after lookup.json`);
  console.log(`tree at ${relative(process.cwd(), out)}`);
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { authors: { type: 'string', default: '100000' } } });
const which = positionals[0] ?? 'search';
if (which === 'search') await searchBench(Number(values.authors));
else throw new Error(`unknown benchmark "${which}": expected search`);
