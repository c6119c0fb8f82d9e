// docs/examples.md's pickers on a part of the real cities (every city of a
// dozen countries, and the 5,000 most populous) and every ISO 639-3 language,
// built for real and served by a static server, against the generic reference
// (reference-declared.ts) on a few hundred seeded requests a person could
// make: names typed a key at a time from any word, typed in full, their later
// pages, Ids, and pages of the lists, at the root and under a country.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { build } from '../../src/build.js';
import type { LookupClient } from '../../src/client/client.js';
import { checkConfig } from '../../src/config/declaration.js';
import { CITY_CONFIGS, writeCitySources } from '../../scripts/examples/cities.js';
import { LANGUAGE_CONFIGS, writeLanguageSources } from '../../scripts/examples/languages.js';
import { mulberry32, type Rng } from '../../scripts/sources/prng.js';
import { createDeclaredReference, parseCsv, type DeclaredResponse } from '../reference-declared.js';
import { startServe, tempDir, treeClient, writeSources, type Running } from '../helpers.js';

const COUNTRIES = ['US', 'FR', 'CA', 'ES', 'DE', 'CR', 'CL', 'AT', 'CH', 'PE', 'ML', 'GT'];
const PAGE_SIZE = 30;

interface Project {
  client: LookupClient;
  reference: (url: string) => DeclaredResponse;
  /** The rows of each CSV, header first. */
  rows: (file: string) => string[][];
}

const root = tempDir('reflist-examples-ref-');
let server: Running;
let cities: Project;
let languages: Project;

async function project(name: 'cities' | 'languages', config: object, write: (dir: string) => void): Promise<Project> {
  const sources = writeSources(join(root, `${name}-src`), { 'reflist.config.json': JSON.stringify(config) });
  write(sources);
  const out = join(root, name);
  await build({ sources, out, pageSize: PAGE_SIZE });
  const files = Object.fromEntries(
    ['city.csv', 'country.csv', 'language.csv'].flatMap((f) => {
      try {
        return [[f, readFileSync(join(sources, f), 'utf8')]];
      } catch {
        return [];
      }
    }),
  );
  return {
    client: await treeClient(out, { baseUrl: `${server.url}${name}/` }),
    reference: createDeclaredReference(checkConfig(config, 'reflist.config.json').declaration!, files, PAGE_SIZE),
    rows: (file) => parseCsv(files[file]!, ','),
  };
}

beforeAll(async () => {
  server = await startServe(root);
  cities = await project('cities', CITY_CONFIGS['picker']!, (dir) =>
    writeCitySources(dir, { countries: COUNTRIES, top: 5000 }),
  );
  languages = await project('languages', LANGUAGE_CONFIGS['picker']!, writeLanguageSources);
}, 240_000);
afterAll(() => server?.stop());

const pick = <T>(rnd: Rng, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

/** What a person types: a name from one of its words on, cut after 1 to all of its characters, or whole. */
function term(rnd: Rng, name: string): string {
  const words = name.split(' ');
  const from = words.slice(Math.floor(rnd() * words.length)).join(' ');
  return rnd() < 0.3 ? name : from.slice(0, 1 + Math.floor(rnd() * from.length));
}

/** A request of one of the pickers' lists: a Term, its page 2 or 3, an Id (of another country's city too), or a page. */
function request(rnd: Rng, path: string, names: readonly string[], ids: readonly string[], total: number): string {
  const r = rnd();
  const page = () => 1 + Math.floor(rnd() * (Math.ceil(total / PAGE_SIZE) + 1));
  if (r < 0.6)
    return `${path}?Term=${encodeURIComponent(term(rnd, pick(rnd, names)))}${rnd() < 0.2 ? `&Page=${2 + Math.floor(rnd() * 2)}` : ''}`;
  if (r < 0.8) return `${path}?Id=${pick(rnd, ids)}`;
  return `${path}?Page=${page()}`;
}

function requests(count: number, seed: number): string[] {
  const rnd = mulberry32(seed);
  const [, ...cityRows] = cities.rows('city.csv'); // id, name, alt, country, population, feature
  const [, ...languageRows] = languages.rows('language.csv'); // id, name, code
  const [, ...countries] = cities.rows('country.csv'); // code, name
  const names = cityRows.map((c) => c[1]!);
  const cityIds = cityRows.map((c) => c[0]!);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = rnd();
    if (r < 0.35) urls.push(request(rnd, '/city.json', names, cityIds, cityRows.length));
    else if (r < 0.7) {
      // Under a country of the dozen (the rest have their most populous cities only), and then and again any other.
      const code = rnd() < 0.8 ? pick(rnd, COUNTRIES) : pick(rnd, countries)[0]!;
      const own = cityRows.filter((c) => c[3] === code);
      const ids = rnd() < 0.8 ? own.map((c) => c[0]!) : cityIds;
      urls.push(
        request(
          rnd,
          `/country/${code}/city.json`,
          own.map((c) => c[1]!),
          ids,
          own.length,
        ),
      );
    } else if (r < 0.75)
      urls.push(
        rnd() < 0.5
          ? `/country.json?Term=${encodeURIComponent(term(rnd, pick(rnd, countries)[1]!))}`
          : `/country/${pick(rnd, countries)[0]}.json`,
      );
    else {
      const l = pick(rnd, languageRows);
      const t = rnd() < 0.4 ? (rnd() < 0.5 && l[2] ? l[2] : l[0]!) : term(rnd, l[1]!); // a code typed in full, or a name
      urls.push(
        rnd() < 0.8
          ? `/language.json?Term=${encodeURIComponent(t)}`
          : request(rnd, '/language.json', [l[1]!], [l[0]!], languageRows.length),
      );
    }
  }
  return urls;
}

test("every answer of the pickers over real cities and languages is the reference's, on 300 requests a person could make", async () => {
  const urls = requests(300, 32);
  const tally = { nonEmptyTerms: 0 };
  for (const url of urls) {
    const { client, reference } = url.startsWith('/language') ? languages : cities;
    const expected = reference(url);
    expect({ url, ...(await client.request(url)) }).toEqual({ url, ...expected });
    const body = expected.body as { total?: number };
    if (url.includes('Term=') && (body.total ?? 0) > 0) tally.nonEmptyTerms++;
  }
  // The requests reach what they are for: most Terms find something, across every list.
  expect(tally.nonEmptyTerms).toBeGreaterThan(150);
  for (const kind of [
    /^\/city\.json\?Term=.*&Page=/,
    /^\/city\.json\?Id=/,
    /^\/country\/US\/city\.json\?Term=/,
    /^\/country\/FR\/city\.json\?Page=/,
    /^\/country\/[A-Z]{2}\/city\.json\?Id=/,
    /^\/language\.json\?Term=/,
    /^\/country\.json\?Term=/,
  ]) {
    expect(
      urls.some((u) => kind.test(u)),
      String(kind),
    ).toBe(true);
  }
}, 240_000);
