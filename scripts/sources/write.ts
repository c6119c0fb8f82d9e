// Writes the ten source files of docs/contract.md §5: the real geography (geo.ts) plus a
// reproducible author/division/descriptor/system sample, either the curated
// one shipped in sources/ or a synthetic corpus of any size for benchmarks.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CsvWriter, writeTable } from './csv.js';
import { countryRows, countyRows, stateRows, US } from './geo.js';
import { authorNamer } from './authors.js';
import { heavyTail, stream } from './prng.js';
import { DIVISIONS, descriptorTexts, syntheticDivisions, systemRows } from './taxa.js';

export interface SyntheticSizes {
  authors: number;
  descriptors?: number;
  divisions?: number;
  categories?: number;
  systems?: number;
  seed?: number;
}

/** rows written per file name */
export type Written = Record<string, number>;

/** Seed and sizes of the shipped sample (sources/). */
export const SHIPPED = { seed: 20240611, authors: 3000, descriptors: 300, systems: 3 } as const;

export async function writeGeography(outDir: string): Promise<Written> {
  const countries = countryRows();
  const states = stateRows(countries);
  const counties = countyRows();
  const usStates = new Set(states.filter((s) => s.country_id === US).map((s) => s.id));
  for (const c of counties) {
    if (!usStates.has(c.state_id)) throw new Error(`county ${c.fips}: state ${c.state_id} is not in state.csv`);
  }
  return {
    'country.csv': await writeTable(
      outDir,
      'country.csv',
      ['id', 'text'],
      countries.map((c) => [c.id, c.text]),
    ),
    'state.csv': await writeTable(
      outDir,
      'state.csv',
      ['id', 'country_id', 'text'],
      states.map((s) => [s.id, s.country_id, s.text]),
    ),
    'county.csv': await writeTable(
      outDir,
      'county.csv',
      ['country_id', 'state_id', 'FIPS', 'county', 'latitudeCenter', 'LongitudeCenter'],
      counties.map((c) => [US, c.state_id, c.fips, c.county, c.lat.toFixed(4), c.lon.toFixed(4)]),
    ),
  };
}

interface SampleSpec {
  seed: number;
  authors: number;
  descriptors: number;
  systems: number;
  divisions: [string, string[]][];
  synthetic: boolean;
}

// Share of authors that each system has counts for (then 10% for any further system).
const AUTHOR_SHARE = [0.4, 0.2, 0.08];

async function writeSample(outDir: string, spec: SampleSpec): Promise<Written> {
  const { seed } = spec;
  const written: Written = {};
  const systems = systemRows(spec.systems);
  written['system.csv'] = await writeTable(outDir, 'system.csv', ['id', 'text'], systems);

  // Authors: streamed; ids ascend with gaps of 1–4 (not dense).
  const names = authorNamer(stream(seed, 'author-names'), spec.synthetic);
  const gaps = stream(seed, 'author-ids');
  const ids = new Uint32Array(spec.authors);
  const authors = new CsvWriter(join(outDir, 'author.csv'), ['id', 'text']);
  let id = 1000;
  for (let i = 0; i < spec.authors; i++) {
    id += 1 + Math.floor(gaps() * 4);
    ids[i] = id;
    authors.add([id, names.next()]);
    if (authors.full) await authors.flush();
  }
  await authors.close();
  written['author.csv'] = authors.rows;

  // Sparse, heavy-tailed counts: most authors have no row; a few have huge counts.
  const authorCounts = new CsvWriter(join(outDir, 'author_count.csv'), ['system', 'id', 'count']);
  for (const [s, [sys]] of systems.entries()) {
    const rng = stream(seed, `author-count:${sys}`);
    const share = AUTHOR_SHARE[s] ?? 0.1;
    for (const a of ids) {
      if (rng() >= share) continue;
      authorCounts.add([sys, a, heavyTail(rng, 1.1, 1, 1_000_000)]);
      if (authorCounts.full) await authorCounts.flush();
    }
  }
  await authorCounts.close();
  written['author_count.csv'] = authorCounts.rows;

  const divisionRows: [number, string][] = [];
  const categoryRows: [number, number, string][] = [];
  spec.divisions.forEach(([text, children], d) => {
    divisionRows.push([d + 1, text]);
    for (const child of children) categoryRows.push([categoryRows.length + 1, d + 1, child]);
  });
  written['division.csv'] = await writeTable(outDir, 'division.csv', ['id', 'text'], divisionRows);
  written['category.csv'] = await writeTable(outDir, 'category.csv', ['id', 'division_id', 'text'], categoryRows);

  const divisionCounts: [string, number, number][] = [];
  for (const [sys] of systems) {
    const rng = stream(seed, `division-count:${sys}`);
    for (const [d] of divisionRows) if (rng() < 0.75) divisionCounts.push([sys, d, heavyTail(rng, 0.9, 20, 5_000_000)]);
  }
  written['division_count.csv'] = await writeTable(
    outDir,
    'division_count.csv',
    ['system', 'id', 'count'],
    divisionCounts,
  );

  const descriptors = descriptorTexts(stream(seed, 'descriptors'), spec.descriptors);
  written['descriptor.csv'] = await writeTable(
    outDir,
    'descriptor.csv',
    ['id', 'text'],
    descriptors.map((text, i) => [i + 1, text]),
  );
  return written;
}

function ordered(written: Written): Written {
  return Object.fromEntries(Object.entries(written).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The shipped sources: real geography plus the curated, seeded sample. */
export async function writeShipped(outDir: string): Promise<Written> {
  await mkdir(outDir, { recursive: true });
  const geo = await writeGeography(outDir);
  const sample = await writeSample(outDir, { ...SHIPPED, divisions: DIVISIONS, synthetic: false });
  return ordered({ ...geo, ...sample });
}

/** Sizes not given scale with `authors` (100,000 → 20,000 descriptors, 500 divisions, 4,000 categories). */
export function resolveSizes(sizes: SyntheticSizes): Required<SyntheticSizes> {
  const authors = Math.max(0, Math.floor(sizes.authors));
  const divisions = sizes.divisions ?? Math.max(1, Math.round(authors / 200));
  return {
    authors,
    descriptors: sizes.descriptors ?? Math.max(1, Math.round(authors / 5)),
    divisions,
    categories: sizes.categories ?? Math.max(divisions, Math.round(authors / 25)),
    systems: sizes.systems ?? 3,
    seed: sizes.seed ?? 1,
  };
}

/** A synthetic corpus of the given sizes, with the real country/state/county files. */
export async function writeSynthetic(outDir: string, sizes: SyntheticSizes): Promise<Written> {
  const s = resolveSizes(sizes);
  await mkdir(outDir, { recursive: true });
  const geo = await writeGeography(outDir);
  const divisions = syntheticDivisions(stream(s.seed, 'divisions'), s.divisions, s.categories);
  const sample = await writeSample(outDir, { ...s, divisions, synthetic: true });
  return ordered({ ...geo, ...sample });
}
