// Regenerates the source CSV files (docs/contract.md §5) from npm data packages.
//
//   npm run sources                       # the shipped sources/ (real geography + seeded sample)
//   npm run sources -- --out DIR          # the same, elsewhere
//   npm run sources -- --synthetic --out DIR --authors N [--descriptors N]
//        [--divisions N] [--categories N] [--systems N] [--seed S]
//
// Files (UTF-8, LF, header row, RFC 4180 quoting):
// - country.csv   i18n-iso-countries: id = ISO 3166-1 numeric (840), text = common English name.
// - state.csv     US: us-atlas states, id = state FIPS (6 California, 11 DC, 72 Puerto Rico, …).
//                 Other countries: country-region-data first-level subdivisions. Stable id rule:
//                 take the region code, drop a leading "<alpha-2>-", upper-case it; if it is 1–3
//                 letters/digits (the ISO 3166-2 suffix), id = parseInt(code, 36) ("CA" → 442,
//                 "08" → 8; always < 46656). Regions without a code (Puerto Rico's municipios,
//                 Kiribati, …): id = 100000 + FNV-1a-32(UTF-8 of the NFC name) mod 900000000.
//                 Both depend only on the region itself, never on list order, so ids do not change
//                 when the package is updated; a collision within a country aborts the script.
// - county.csv    us-atlas counties (2017 Census cartographic boundaries, incl. Puerto Rico and
//                 the island areas): FIPS = 5-digit code as an integer (6037), county = Census
//                 NAME without "County" ("Los Angeles"), centre = d3-geo spherical centroid,
//                 4 decimals (see scripts/sources/geo.ts for Los Angeles and its islands).
// - author, division, category, descriptor, system, author_count, division_count: a seeded
//   (mulberry32) sample; --synthetic makes invented corpora of any size (scripts/sources/write.ts).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeShipped, writeSynthetic, resolveSizes, type Written } from './sources/write.js';

export { writeShipped, writeSynthetic, resolveSizes, type SyntheticSizes, type Written } from './sources/write.js';

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return Number.parseInt(value, 10);
}

function report(outDir: string, written: Written, ms: number): void {
  console.log(`wrote ${outDir}`);
  for (const [file, rows] of Object.entries(written))
    console.log(`  ${file.padEnd(20)} ${String(rows).padStart(9)} rows`);
  console.log(`in ${(ms / 1000).toFixed(1)} s`);
}

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      synthetic: { type: 'boolean', default: false },
      authors: { type: 'string' },
      descriptors: { type: 'string' },
      divisions: { type: 'string' },
      categories: { type: 'string' },
      systems: { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  const started = performance.now();
  if (!values.synthetic) {
    const sizeFlags = ['authors', 'descriptors', 'divisions', 'categories', 'systems', 'seed'] as const;
    const given = sizeFlags.filter((f) => values[f] !== undefined);
    if (given.length > 0) throw new Error(`--${given.join(', --')} need --synthetic`);
    const outDir = resolve(values.out ?? 'sources');
    report(outDir, await writeShipped(outDir), performance.now() - started);
    return;
  }
  if (values.out === undefined) throw new Error('--synthetic needs --out DIR (sources/ holds the shipped files)');
  const authors = count('authors', values.authors);
  if (authors === undefined) throw new Error('--synthetic needs --authors N');
  const sizes = resolveSizes({
    authors,
    descriptors: count('descriptors', values.descriptors),
    divisions: count('divisions', values.divisions),
    categories: count('categories', values.categories),
    systems: count('systems', values.systems),
    seed: count('seed', values.seed),
  });
  const outDir = resolve(values.out);
  console.log(`synthetic: ${JSON.stringify(sizes)}`);
  report(outDir, await writeSynthetic(outDir, sizes), performance.now() - started);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(`sources: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
