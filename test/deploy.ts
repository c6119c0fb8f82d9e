// A deploy while a page is open: two builds of the same lists a week apart
// (B has more authors, some renamed, some removed), the requests a page makes
// over them, and the verdict on each answer: equal to build A's reference,
// to build B's, or to neither. Shared by test/e2e/deploy.test.ts and
// `npm run bench -- deploy`, so the figures in the closing notes and the
// assertions of the tests come from one definition.
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { mulberry32, type Rng } from '../scripts/sources/prng.js';
import type { SearchTuning } from '../src/build.js';
import { toCsvFiles } from './arbitraries.js';
import { buildFrom, type Running } from './helpers.js';
import { fold, referenceRequest, type RefResponse, type RefSources } from './reference.js';

const SURNAMES = [
  'Fisher',
  'Fischer',
  'Fishman',
  'Smith',
  'Smithson',
  'Eckert',
  'Eco',
  'Ecology',
  'Müller',
  'Muller',
  'Mueller',
  'García',
  'Garcia',
  'Gómez',
  'Nguyen',
  'Ngo',
  'Ølsen',
  'Olsen',
  'Ström',
  'Strand',
  'Lee',
  'Li',
  'Łukasz',
  'Brown',
  'Browning',
  'Abbott',
  'Abel',
  'Zhang',
  'Zhao',
  'Østergaard',
];
const GIVEN = [
  'Anna',
  'Anne',
  'Ann',
  'Ben',
  'Björn',
  'Carla',
  'Chen',
  'Dmitri',
  'Eva',
  'Émile',
  'Fatima',
  'Jo',
  'John',
  'Johan',
  'Yuki',
  'Zoë',
];
const WORDS = [
  'ecology',
  'economy',
  'ecosystem',
  'fisheries',
  'fish',
  'marine',
  'marsh',
  'forest',
  'forestry',
  'soil',
  'soils',
  'water',
  'waters',
  'climate',
  'clay',
];

const pick = <T>(rnd: Rng, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

function authorName(rnd: Rng): string {
  return `${pick(rnd, SURNAMES)}${rnd() < 0.3 ? pick(rnd, ['', 's', 'er', 'ova']) : ''}, ${pick(rnd, GIVEN)}`;
}

function phrase(rnd: Rng, words: number): string {
  return Array.from({ length: words }, () => pick(rnd, WORDS)).join(' ');
}

export interface DeploySizes {
  authors: number;
  descriptors: number;
  divisions: number;
  categories: number;
}

/** Build A's sources: realistic labels with long shared prefixes and duplicates, three systems, a few countries. */
export function sourcesA(seed: number, sizes: DeploySizes): RefSources {
  const rnd = mulberry32(seed);
  const author = Array.from({ length: sizes.authors }, (_, i) => ({ id: 1 + i * 3, text: authorName(rnd) }));
  const descriptor = Array.from({ length: sizes.descriptors }, (_, i) => ({
    id: 10 + i,
    text: phrase(rnd, 1 + Math.floor(rnd() * 3)),
  }));
  const division = Array.from({ length: sizes.divisions }, (_, i) => ({
    id: 100 + i,
    text: `${pick(rnd, WORDS)} division ${i}`,
  }));
  const category = Array.from({ length: sizes.categories }, (_, i) => ({
    id: 5000 + i,
    division_id: division[Math.floor(rnd() * division.length)]!.id,
    text: phrase(rnd, 2),
  }));
  const system = [
    { id: 'gbif', text: 'GBIF' },
    { id: 'col', text: 'Catalogue of Life' },
    { id: 'itis', text: 'ITIS' },
  ];
  const counts = (ids: number[]) =>
    system.flatMap((s) =>
      ids.filter(() => rnd() < 0.4).map((id) => ({ system: s.id, id, count: Math.floor(rnd() * 50) })),
    );
  return {
    author,
    descriptor,
    division,
    category,
    system,
    author_count: counts(author.map((a) => a.id)),
    division_count: counts(division.map((d) => d.id)),
    country: [
      { id: 840, text: 'United States' },
      { id: 276, text: 'Germany' },
    ],
    state: [
      { id: 6, country_id: 840, text: 'California' },
      { id: 9, country_id: 276, text: 'Bayern' },
    ],
    county: [
      { country_id: 840, state_id: 6, FIPS: 6001, county: 'Alameda', latitudeCenter: 37.6, LongitudeCenter: -121.9 },
    ],
  };
}

/**
 * Build B, a week after A: `grow` times as many authors and descriptors (new
 * ids), a tenth of A's renamed, a twentieth removed, more categories, and
 * counts that moved. The lists cross their thresholds: more id buckets,
 * other search files.
 */
export function sourcesB(a: RefSources, seed: number, grow: number): RefSources {
  const rnd = mulberry32(seed ^ 0x5eed);
  const evolve = <T extends { id: number; text: string }>(
    rows: T[],
    fresh: (i: number) => T,
    name: () => string,
  ): T[] => {
    const kept = rows.filter(() => rnd() >= 0.05).map((row) => (rnd() < 0.1 ? { ...row, text: name() } : row));
    const added = Array.from({ length: Math.round(Math.max(rows.length, 4) * (grow - 1)) }, (_, i) => fresh(i));
    return [...kept, ...added];
  };
  const maxId = (rows: { id: number }[]) => rows.reduce((m, r) => Math.max(m, r.id), 0);
  const author = evolve(
    a.author,
    (i) => ({ id: maxId(a.author) + 2 + i * 3, text: authorName(rnd) }),
    () => authorName(rnd),
  );
  const descriptor = evolve(
    a.descriptor,
    (i) => ({ id: maxId(a.descriptor) + 1 + i, text: phrase(rnd, 1 + Math.floor(rnd() * 3)) }),
    () => phrase(rnd, 2),
  );
  const division = a.division.map((d) => (rnd() < 0.2 ? { ...d, text: `${pick(rnd, WORDS)} division ${d.id}` } : d));
  const category = [
    ...a.category.filter(() => rnd() >= 0.05),
    ...Array.from(
      { length: division.length ? Math.round(Math.max(a.category.length, 4) * (grow - 1)) : 0 },
      (_, i) => ({
        id: maxId(a.category) + 1 + i,
        division_id: pick(rnd, division).id,
        text: phrase(rnd, 2),
      }),
    ),
  ];
  const authorIds = new Set(author.map((x) => x.id));
  return {
    ...a,
    author,
    descriptor,
    division,
    category,
    author_count: a.author_count
      .filter((c) => authorIds.has(c.id))
      .map((c) => (rnd() < 0.2 ? { ...c, count: c.count + 1 } : c)),
    division_count: a.division_count.map((c) => (rnd() < 0.2 ? { ...c, count: c.count + 3 } : c)),
  };
}

/** A word start of a label, cut to 1–6 characters, as a person would type it (with its case and accents). */
function termFrom(rnd: Rng, text: string): string {
  const words = text.split(/[\s,]+/).filter(Boolean);
  const word = pick(rnd, words.length ? words : ['a']);
  return word.slice(0, 1 + Math.floor(rnd() * Math.min(6, word.length)));
}

/** A request a page would make of either build: Term with pages, Id, System, division children, plain pages, countries. */
export function randomRequest(rnd: Rng, a: RefSources, b: RefSources, pageSize: number): string {
  const src = rnd() < 0.5 ? a : b;
  const any = <T extends { id: number; text: string }>(rows: T[]): { id: number; text: string } =>
    rows.length ? pick(rnd, rows) : { id: 1, text: 'a' };
  const r = rnd();
  const system = () => (rnd() < 0.3 ? `&System=${pick(rnd, ['gbif', 'col', 'itis'])}` : '');
  const page = (total: number) => {
    const pages = Math.max(1, Math.ceil(total / pageSize));
    return rnd() < 0.5 ? 1 + Math.floor(rnd() * 3) : 1 + Math.floor(rnd() * (pages + 1));
  };
  if (r < 0.4) {
    const list = pick(rnd, ['author', 'author', 'descriptor', 'division'] as const);
    const rows = list === 'division' && rnd() < 0.5 ? src.category : src[list];
    const term = termFrom(rnd, any(rows).text);
    const matches = src[list].filter((x) =>
      fold(x.text)
        .split(' ')
        .some((w) => w.startsWith(fold(term))),
    ).length;
    return `/${list}.json?Term=${encodeURIComponent(term)}&Page=${page(Math.max(matches, pageSize * 3))}${list === 'descriptor' ? '' : system()}`;
  }
  if (r < 0.65) {
    const list = pick(rnd, ['author', 'author', 'descriptor', 'division'] as const);
    const id = rnd() < 0.9 ? any(src[list]).id : 1 + Math.floor(rnd() * 100_000);
    return `/${list}.json?Id=${id}${list === 'descriptor' ? '' : system()}`;
  }
  if (r < 0.75) return `/division.json?Id=${any(src.category).id}&child=true${system()}`;
  if (r < 0.95) {
    const list = pick(rnd, ['author', 'descriptor', 'division'] as const);
    return `/${list}.json?Page=${page(src[list].length)}${list === 'descriptor' ? '' : system()}`;
  }
  return pick(rnd, ['/country.json', '/country/840/state.json?Term=cal', '/country/840/state/6/county.json']);
}

export type Verdict = 'A' | 'B' | 'both' | 'neither' | 'error';

/**
 * An answer against the two builds' references: a 200 must equal one of
 * them, status and body; an error status must be one of theirs. An error
 * where a build answers 200 (a file the deploy took away) is an error.
 */
export function verdict(
  url: string,
  actual: RefResponse | Error,
  a: RefSources,
  b: RefSources,
  pageSize: number,
): Verdict {
  const [ra, rb] = [referenceRequest(a, pageSize, url), referenceRequest(b, pageSize, url)];
  if (actual instanceof Error) return 'error';
  const like = (ref: RefResponse) =>
    ref.status === actual.status && (ref.status !== 200 || isDeepStrictEqual(ref.body, actual.body));
  const [isA, isB] = [like(ra), like(rb)];
  if (isA && isB) return 'both';
  if (isA || isB) return isA ? 'A' : 'B';
  return actual.status === 200 ? 'neither' : 'error';
}

/** What one run of requests gave: how many of each verdict, with the first few bad answers to show. */
export interface Tally {
  counts: Record<Verdict, number>;
  bad: string[];
}

export const newTally = (): Tally => ({ counts: { A: 0, B: 0, both: 0, neither: 0, error: 0 }, bad: [] });

export async function ask(
  tally: Tally,
  request: (url: string) => Promise<RefResponse>,
  url: string,
  a: RefSources,
  b: RefSources,
  pageSize: number,
): Promise<Verdict> {
  const actual = await request(url).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  const v = verdict(url, actual, a, b, pageSize);
  tally.counts[v]++;
  if ((v === 'neither' || v === 'error') && tally.bad.length < 5) {
    const shown =
      actual instanceof Error ? actual.message : `${actual.status} ${JSON.stringify(actual.body).slice(0, 120)}`;
    tally.bad.push(`${url} → ${shown}`);
  }
  return v;
}

/** A fetch that counts what it asks for, by path and status, for the requests a deploy costs a page. */
export function countingFetch(): { fetch: (url: string) => Promise<Response>; log: { url: string; status: number }[] } {
  const log: { url: string; status: number }[] = [];
  return {
    log,
    fetch: async (url: string) => {
      const res = await fetch(url);
      log.push({ url, status: res.status });
      return res;
    },
  };
}

/** How a host replaces tree A with tree B under a page that stays open. */
export type HostKind =
  /** The served folder swaps from A to B at once (Netlify, Cloudflare Pages, GitHub Pages; reflist's own swap). */
  | 'swap'
  /** B copied over A, A's other files left in place (`aws s3 sync` or `rsync` without --delete). */
  | 'overlay'
  /** B, but half of the files A also has still come as A's (a CDN edge that holds old objects). */
  | 'stale-edge'
  /** The swap, and a page opened after it whose lookup.json came from the HTTP cache (A's). */
  | 'cached-manifest';

export interface DeployOptions {
  a: RefSources;
  b: RefSources;
  pageSize: number;
  search?: SearchTuning;
  host: HostKind;
  /** Requests before the deploy, and after it. */
  before: string[];
  after: string[];
  /** Drives which files a stale edge still holds. */
  seed: number;
  /** An empty folder for the trees. */
  dir: string;
  /** The client a page has, over the tree at baseUrl. */
  client(
    baseUrl: string,
    fetch: (url: string) => Promise<Response>,
  ): Promise<{ request(url: string): Promise<RefResponse> }>;
  serve(root: string): Promise<Running>;
}

export interface DeployRun {
  before: Tally;
  after: Tally;
  /** Requests the page made after the deploy, and how many of them were lookup.json or answered other than 200. */
  requestsAfter: number;
  manifestReadsAfter: number;
  failedReadsAfter: number;
}

/** Every file below root (links followed), relative. */
function filesBelow(root: string, at = ''): string[] {
  return readdirSync(join(root, at), { withFileTypes: true }).flatMap((d) => {
    const rel = at ? `${at}/${d.name}` : d.name;
    return statSync(join(root, rel)).isDirectory() ? filesBelow(root, rel) : [rel];
  });
}

/** One page over a deploy: requests before it, the host's deploy, requests after it, each judged against both builds. */
export async function deployRun(o: DeployOptions): Promise<DeployRun> {
  const rnd = mulberry32(o.seed);
  const [outA, outB] = [join(o.dir, 'a', 'dist'), join(o.dir, 'b', 'dist')];
  await buildFrom(toCsvFiles(o.a), outA, o.pageSize, o.search);
  await buildFrom(toCsvFiles(o.b), outB, o.pageSize, o.search);
  // The served root: reflist's own output folder (a link it swaps) for a swap, a plain folder otherwise.
  const root = join(o.dir, 'host', 'dist');
  if (o.host === 'swap' || o.host === 'cached-manifest') await buildFrom(toCsvFiles(o.a), root, o.pageSize, o.search);
  else cpSync(outA, root, { recursive: true, dereference: true });
  const server = await o.serve(root);
  try {
    const counted = countingFetch();
    let page = await o.client(server.url, counted.fetch);
    const before = newTally();
    const request = (url: string) => page.request(url);
    for (const url of o.before) await ask(before, request, url, o.a, o.b, o.pageSize);

    if (o.host === 'swap' || o.host === 'cached-manifest') await buildFrom(toCsvFiles(o.b), root, o.pageSize, o.search);
    else if (o.host === 'overlay') cpSync(outB, root, { recursive: true, dereference: true, force: true });
    else {
      const old = new Set(filesBelow(outA));
      for (const file of filesBelow(outB)) {
        const from = file !== 'lookup.json' && old.has(file) && rnd() < 0.5 ? outA : outB;
        cpSync(join(from, file), join(root, file), { dereference: true, force: true });
      }
    }
    if (o.host === 'cached-manifest') {
      // A page opened after the deploy, handed A's lookup.json by the HTTP cache.
      const stale = readFileSync(join(outA, 'lookup.json'), 'utf8');
      const fetchOnce = async (url: string) => {
        if (new URL(url).pathname.endsWith('/lookup.json') && !new URL(url).search)
          return new Response(stale, { status: 200 });
        return counted.fetch(url);
      };
      page = await o.client(server.url, fetchOnce);
    }

    const mark = counted.log.length;
    const after = newTally();
    for (const url of o.after) await ask(after, request, url, o.a, o.b, o.pageSize);
    const log = counted.log.slice(mark);
    return {
      before,
      after,
      requestsAfter: log.length,
      manifestReadsAfter: log.filter((r) => new URL(r.url).pathname.endsWith('/lookup.json')).length,
      failedReadsAfter: log.filter((r) => r.status !== 200).length,
    };
  } finally {
    await server.stop();
  }
}
