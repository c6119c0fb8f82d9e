// scripts/sources/species.ts, the corpus of `npm run bench -- scale`: its rows
// parse, its labels have the shape of GBIF's scientific names, its genera are
// Zipf-like, a seed gives the same bytes, every species' family is a family,
// and its config passes the build's own checks (read and checked by src/, as
// a build reads them; test/e2e builds trees).
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  editSpecies,
  familyNamesOf,
  SPECIES_CONFIG,
  speciesSizes,
  writeSpecies,
} from '../../scripts/sources/species.js';
import { loadDeclaration } from '../../src/config/load.js';
import { sectionsOf } from '../../src/config/sections.js';
import { checkSources } from '../../src/sources/check.js';

const temp = () => mkdtempSync(join(process.env['REFLIST_TEST_TMP'] ?? tmpdir(), 'species-'));

type Row = { id: string; canonical: string; authorship: string; rank: string; rank_level: string; family_id: string };
const rowsOf = <T>(dir: string, file: string) => parse(readFileSync(join(dir, file)), { columns: true }) as T[];

describe('the species corpus', () => {
  const ROWS = 20_000;
  let dir = '';
  let species: Row[] = [];
  beforeAll(async () => {
    dir = temp();
    await writeSpecies(dir, ROWS, 1);
    species = rowsOf<Row>(dir, 'species.csv');
  });

  test('its rows parse: ids 1..rows, a rank and its level, a family id', () => {
    expect(readFileSync(join(dir, 'species.csv'), 'utf8').split('\n', 1)[0]).toBe(
      'id,canonical,authorship,rank,rank_level,family_id',
    );
    expect(species.map((r) => Number(r.id))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    const levels: Record<string, string> = { species: '1', subspecies: '2', variety: '3', form: '4' };
    expect(species.filter((r) => levels[r.rank] !== r.rank_level || !/^[1-9]\d*$/.test(r.family_id))).toEqual([]);
    // Realistic shares: mostly species, then subspecies, varieties, forms.
    const share = (rank: string) => species.filter((r) => r.rank === rank).length / ROWS;
    expect(share('species')).toBeGreaterThan(0.8);
    expect(share('subspecies')).toBeGreaterThan(share('variety'));
    expect(share('variety')).toBeGreaterThan(share('form'));
    expect(share('form')).toBeGreaterThan(0);
  });

  test('labels read `Genus epithet [subsp.|var.|f. subepithet] Author, year`, in parentheses sometimes', () => {
    const label = (r: Row) => `${r.canonical} ${r.authorship}`;
    const shape = /^[A-Z][a-z]+ [a-z]+( (subsp\.|var\.|f\.) [a-z]+)? (\([\p{L}.]+, \d{4}\)|[\p{L}.]+, \d{4})$/u;
    expect(species.map(label).filter((l) => !shape.test(l))).toEqual([]);
    expect(species.filter((r) => r.canonical.split(' ').length !== (r.rank === 'species' ? 2 : 4))).toEqual([]);
    const years = species.map((r) => Number(/(\d{4})\)?$/.exec(r.authorship)![1]));
    expect(Math.min(...years)).toBe(1753);
    expect(Math.max(...years)).toBeLessThanOrEqual(2025);
    const parenthesised = species.filter((r) => r.authorship.startsWith('(')).length / ROWS;
    expect(parenthesised).toBeGreaterThan(0.15);
    expect(parenthesised).toBeLessThan(0.35);
    // Real names are among them, and many distinct epithets.
    expect(species.some((r) => r.canonical.startsWith('Quercus '))).toBe(true);
    expect(species.some((r) => r.authorship === 'L., 1753' || r.authorship === '(L., 1753)')).toBe(true);
    expect(new Set(species.map((r) => r.canonical.split(' ')[1])).size).toBeGreaterThan(ROWS / 4);
  });

  test('genera are Zipf-like: a few large ones, a long tail of genera with one species', () => {
    const sizes = new Map<string, number>();
    for (const r of species) {
      const genus = r.canonical.split(' ')[0]!;
      sizes.set(genus, (sizes.get(genus) ?? 0) + 1);
    }
    const sorted = [...sizes.values()].sort((a, b) => b - a);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    expect(sorted[0]).toBeGreaterThan(30 * median);
    expect(sorted.filter((n) => n === 1).length).toBeGreaterThan(sorted.length / 10);
    expect(sorted.length).toBeGreaterThan(ROWS / 20);
    // The ten largest hold a tenth of the species or more, and no genus near half of them.
    expect(sorted.slice(0, 10).reduce((a, b) => a + b, 0)).toBeGreaterThan(ROWS / 20);
    expect(sorted[0]).toBeLessThan(ROWS / 10);
  });

  test("every species' family is in family.csv, and every genus is in one family", () => {
    const families = rowsOf<{ id: string; name: string }>(dir, 'family.csv');
    expect(families.map((f) => Number(f.id))).toEqual(families.map((_, i) => i + 1));
    expect(new Set(families.map((f) => f.name)).size).toBe(families.length);
    for (const f of families) expect(f.name).toMatch(/^[A-Z][a-z]+(aceae|idae)$/);
    const ids = new Set(families.map((f) => f.id));
    expect(species.filter((r) => !ids.has(r.family_id))).toEqual([]);
    const familyOf = new Map<string, string>();
    const twice: string[] = [];
    for (const r of species) {
      const genus = r.canonical.split(' ')[0]!;
      if ((familyOf.get(genus) ?? r.family_id) !== r.family_id) twice.push(`${genus}: ${r.family_id}`);
      familyOf.set(genus, r.family_id);
    }
    expect(twice).toEqual([]);
    expect(familyOf.get('Quercus')).toBe(families.find((f) => f.name === 'Fagaceae')!.id);
  });

  test('families are named at every size: 5,000 at ten million rows, and more', () => {
    expect(speciesSizes(10_000_000).families).toBe(5000);
    for (const count of [5000, 20_000]) {
      const names = familyNamesOf(count, 1);
      expect(names).toHaveLength(count);
      expect(new Set(names).size).toBe(count);
    }
  });

  test('the same seed gives the same bytes; another seed other ones', async () => {
    const [a, b, c] = [temp(), temp(), temp()];
    const corpus = await writeSpecies(a, 3000, 7);
    await writeSpecies(b, 3000, 7);
    await writeSpecies(c, 3000, 8);
    for (const file of ['species.csv', 'family.csv', 'reflist.config.json'])
      expect(readFileSync(join(a, file)).equals(readFileSync(join(b, file))), file).toBe(true);
    expect(readFileSync(join(a, 'species.csv')).equals(readFileSync(join(c, 'species.csv')))).toBe(false);
    expect(corpus.rows).toBe(3000);
    expect(corpus.sample.length).toBeGreaterThan(0);
    for (const name of corpus.sample) expect(name).toMatch(/^[A-Z][a-z]+ [a-z]+$/);
  });

  test('its config passes the checks a build makes, and declares what bench-scale types into', async () => {
    const small = temp();
    await writeSpecies(small, 2000, 1);
    const { declaration } = loadDeclaration(small);
    expect(declaration.lists.map((l) => l.name)).toEqual(['family', 'species', 'familySpecies']);
    const checked = checkSources(small, declaration, sectionsOf(declaration));
    expect(checked.items['species']).toHaveLength(2000);
    expect(JSON.parse(readFileSync(join(small, 'reflist.config.json'), 'utf8'))).toEqual(SPECIES_CONFIG);
    expect(SPECIES_CONFIG.lists.familySpecies.parent).toEqual({ list: 'family', column: 'family_id' });
    expect(SPECIES_CONFIG.lists.species.order).toEqual(['level']);
  });

  test("an edit changes one species' year in place: the file keeps its length", async () => {
    const small = temp();
    await writeSpecies(small, 500, 1);
    const path = join(small, 'species.csv');
    const [before, size] = [readFileSync(path, 'utf8').split('\n'), statSync(path).size];
    const line = editSpecies(small, 250);
    const after = readFileSync(path, 'utf8').split('\n');
    expect(statSync(path).size).toBe(size);
    expect(after[250]).toBe(line);
    expect(line).not.toBe(before[250]);
    expect(line.replace(/\d{4}(\)?",)/, '$1')).toBe(before[250]!.replace(/\d{4}(\)?",)/, '$1'));
    expect(after.filter((l, i) => l !== before[i])).toEqual([line]);
    expect(() => editSpecies(small, 501)).toThrow(/no row 501/);
  });
});
