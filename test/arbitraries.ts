// fast-check arbitraries for property tests: nasty but valid sources (docs/contract.md §5),
// requests of the original service against them (docs/contract.md §1), and their CSV files.
import fc from 'fast-check';
import { mulberry32 } from '../scripts/sources/prng.js';
import type { RefSources } from './reference.js';

type Label = { id: number; text: string };

// ---------------------------------------------------------------- texts

// Words chosen so that folds collide (Müller/Muller, straße/Strasse), scripts
// mix, astral characters appear, and some words fold to nothing (emoji).
const WORDS = [
  'Smith',
  'smith',
  'SMITH',
  'Smithson',
  'Smyth',
  'John',
  'Johnson',
  'Jo',
  'J.',
  'Mary',
  'Ann',
  'Anne',
  'Müller',
  'Muller',
  'Mueller',
  'MÜLLER',
  'Ørsted',
  'Orsted',
  'Łukasz',
  'Lukasz',
  'straße',
  'Strasse',
  'STRASSE',
  'Ångström',
  'Zoë',
  'José',
  'Jose',
  'café',
  'cafe\u0301',
  'Nguyễn',
  'Đorđe',
  'Þór',
  'Thor',
  'Æsir',
  'aesir',
  'œuvre',
  'ıstanbul',
  'İstanbul',
  'Istanbul',
  'ﬁsh',
  'fish',
  'Ⅻ',
  '½',
  'x²',
  '１２３',
  '123',
  '0',
  '007',
  'Σωκράτης',
  'ΣΩΚΡΆΤΗΣ',
  'σωκρατης',
  'Αθήνα',
  'Иванов',
  'иванов',
  'Пётр',
  'Петр',
  'Ёлка',
  '山田',
  '太郎',
  '北京市',
  '東京',
  'محمد',
  'علي',
  'עברית',
  'हिन्दी',
  '한국어',
  '😀',
  '🦊fox',
  '𝔘𝔫𝔦',
  '𠜎𠜱',
  'de',
  'la',
  'van',
  'der',
  "O'Brien",
  "d'Artagnan",
  'Anne-Marie',
  'Jean-Luc',
  'Mc',
  'Donald',
  'McDonald',
];
const SEPARATORS = [
  ' ',
  ' ',
  ' ',
  ', ',
  ', ',
  '  ',
  '-',
  '. ',
  ' (',
  ') ',
  '/',
  ' — ',
  '\t',
  '\n',
  ' & ',
  '"',
  ' "',
  ',',
  '_',
  '’',
];
const PREFIXES = ['', '', '', '', '(', '"', "'", '¿', '#', '«'];
const SUFFIXES = ['', '', '', '', '.', ')', '"', '!', ' Jr.', ' 2nd', '»', ' 😀'];
// Families of labels sharing 5–15 leading characters.
const SHARED_STARTS = [
  'Smith, J',
  'Smith, Jo',
  'Smith, John ',
  'Smithson-Wal',
  'Müller-Lüdenscheid, ',
  'van der Berg, ',
  'Иванов, И',
  '山田太',
  'Ørsted, Hans ',
];
const TAIL_CHARS = ['a', 'e', 'o', 'n', 'h', 'R', '.', ' ', ' ', 'ü', 'ß', '-', 'Ω', ','];

const arbComposedText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...PREFIXES),
    fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 4 }),
    fc.constantFrom(...SUFFIXES),
  )
  .map(([pre, parts, suf]) => pre + parts.map(([w, sep], i) => (i === 0 ? w : sep + w)).join('') + suf);

const arbFamilyText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...SHARED_STARTS),
    fc.array(fc.constantFrom(...TAIL_CHARS), { maxLength: 6 }),
    fc.option(fc.constantFrom(...WORDS)),
  )
  .map(([start, tail, word]) => start + tail.join('') + (word === null ? '' : ' ' + word));

const arbFreshText: fc.Arbitrary<string> = fc
  .oneof({ arbitrary: arbComposedText, weight: 3 }, { arbitrary: arbFamilyText, weight: 2 })
  // Texts never start or end with whitespace (nothing above makes them so) and are never blank.
  .map((t) => t.trim())
  .filter((t) => t !== '');

/** Texts drawn partly from a small shared pool, so exact duplicates are common. */
function arbTextFrom(pool: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 1 }, { arbitrary: arbFreshText, weight: 3 });
}

// ---------------------------------------------------------------- numbers

const BIG = 2 ** 40;
const arbId: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 200 }), weight: 4 },
  { arbitrary: fc.constantFrom(0, 1, 7, 840, 2 ** 31, 2 ** 32, BIG - 1, BIG), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: BIG }), weight: 2 },
);
// Small ranges so the same state id / FIPS recurs under different parents.
const arbSmallId: fc.Arbitrary<number> = fc.oneof(fc.integer({ min: 0, max: 12 }), arbId);
const arbFips: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 10 }),
  fc.integer({ min: 0, max: 99999 }),
  fc.constant(6037),
);
const arbCount: fc.Arbitrary<number> = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 100 }),
  fc.integer({ min: 0, max: BIG }),
);

function arbCoordinate(limit: number): fc.Arbitrary<number> {
  return (
    fc
      .oneof(
        { arbitrary: fc.integer({ min: -limit, max: limit }), weight: 1 },
        {
          arbitrary: fc.constantFrom(
            ...[limit, -limit, 0.5, -0.000001, 34.0522, -118.2437].filter((x) => Math.abs(x) <= limit),
          ),
          weight: 1,
        },
        { arbitrary: fc.integer({ min: -limit * 1e6, max: limit * 1e6 }).map((n) => n / 1e6), weight: 3 },
        { arbitrary: fc.double({ min: -limit, max: limit, noNaN: true, noDefaultInfinity: true }), weight: 1 },
      )
      // -0 would not survive String(); below 1e-6 String() switches to exponent notation.
      .map((x) => (Object.is(x, -0) || Math.abs(x) < 1e-6 ? 0 : x))
  );
}

const SIZE_NEAR_PAGES = [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 14, 15, 16, 29, 30, 31, 59, 60, 61, 89, 90, 91, 119, 120];

/** List sizes biased to land on and around page boundaries for page sizes 1, 2, 3, 5, 30. */
function arbSize(max: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: 0, max: Math.min(6, max) }),
    fc.constantFrom(...SIZE_NEAR_PAGES.filter((n) => n <= max)),
    fc.integer({ min: 0, max }),
  );
}

/** Page sizes the property tests should build with. */
export const arbPageSize: fc.Arbitrary<number> = fc.constantFrom(1, 2, 3, 5, 30);

function arbLabels(
  size: fc.Arbitrary<number>,
  text: fc.Arbitrary<string>,
  id: fc.Arbitrary<number> = arbId,
): fc.Arbitrary<Label[]> {
  return size.chain((n) =>
    fc
      .tuple(fc.uniqueArray(id, { minLength: n, maxLength: n }), fc.array(text, { minLength: n, maxLength: n }))
      .map(([ids, texts]) => ids.map((i, k) => ({ id: i, text: texts[k] as string }))),
  );
}

function arbPermutation<T>(xs: T[]): fc.Arbitrary<T[]> {
  return fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length });
}

const arbSystemId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('gbif', 'GBIF2', 'iDigBio', 'a', '-', '_', 'Sys_01-a', 'x'.repeat(64), '0'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
);

// ---------------------------------------------------------------- sources

export interface ArbSourcesOptions {
  /** Largest author list (default 120). */
  maxAuthors?: number;
  /** Largest descriptor list (default 40). */
  maxDescriptors?: number;
  /** Largest division (parent) list (default 12). */
  maxDivisions?: number;
}

type Geo = Pick<RefSources, 'country' | 'state' | 'county'>;

function arbGeo(text: fc.Arbitrary<string>): fc.Arbitrary<Geo> {
  const arbCountyRow = fc.record({
    FIPS: arbFips,
    county: text,
    latitudeCenter: arbCoordinate(90),
    LongitudeCenter: arbCoordinate(180),
  });
  return fc
    .uniqueArray(fc.record({ id: arbId, text }), { selector: (c) => c.id, minLength: 2, maxLength: 7 })
    .chain((countries) =>
      fc
        .tuple(
          ...countries.map((country, ci) =>
            fc
              // Country 0 never has states; country 1 has at least one, whose first has no counties.
              .uniqueArray(fc.record({ id: arbSmallId, text }), {
                selector: (s) => s.id,
                minLength: ci === 1 ? 1 : 0,
                maxLength: ci === 0 ? 0 : 5,
              })
              .chain((states) =>
                fc
                  .tuple(
                    ...states.map((state, si) =>
                      fc
                        .uniqueArray(arbCountyRow, { selector: (c) => c.FIPS, maxLength: ci === 1 && si === 0 ? 0 : 4 })
                        .map((rows) => rows.map((r) => ({ country_id: country.id, state_id: state.id, ...r }))),
                    ),
                  )
                  .map((countyLists) => ({
                    states: states.map((s) => ({ id: s.id, country_id: country.id, text: s.text })),
                    counties: countyLists.flat(),
                  })),
              ),
          ),
        )
        .chain((perCountry) =>
          fc.record({
            country: arbPermutation(countries),
            state: arbPermutation(perCountry.flatMap((p) => p.states)),
            county: arbPermutation(perCountry.flatMap((p) => p.counties)),
          }),
        ),
    );
}

function arbDivisions(
  text: fc.Arbitrary<string>,
  maxDivisions: number,
): fc.Arbitrary<Pick<RefSources, 'division' | 'category'>> {
  return arbLabels(arbSize(maxDivisions), text).chain((division) => {
    if (division.length === 0) return fc.constant({ division, category: [] });
    // Index 0 is favoured so one division gets many children while others get none.
    const arbParent = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: division.length - 1 }));
    return fc
      .uniqueArray(fc.record({ id: arbId, parent: arbParent, text }), { selector: (c) => c.id, maxLength: 40 })
      .map((cats) => ({
        division,
        category: cats.map((c) => ({ id: c.id, division_id: (division[c.parent] as Label).id, text: c.text })),
      }));
  });
}

/** Sparse counts of each system over `ids`, explicit zeros included. */
function arbCounts(
  systems: readonly { id: string }[],
  ids: readonly number[],
): fc.Arbitrary<RefSources['author_count']> {
  return fc
    .tuple(
      ...systems.map((s) =>
        fc
          .subarray([...ids])
          .chain((chosen) =>
            fc
              .array(arbCount, { minLength: chosen.length, maxLength: chosen.length })
              .map((counts) => chosen.map((id, k) => ({ system: s.id, id, count: counts[k] as number }))),
          ),
      ),
    )
    .chain((lists) => arbPermutation(lists.flat()));
}

/** Valid sources (every key unique, every reference resolvable) that are hard to get right. */
export function arbSources(opts: ArbSourcesOptions = {}): fc.Arbitrary<RefSources> {
  const { maxAuthors = 120, maxDescriptors = 40, maxDivisions = 12 } = opts;
  return fc.array(arbFreshText, { minLength: 1, maxLength: 6 }).chain((pool) => {
    const text = arbTextFrom(pool);
    return fc
      .record({
        author: arbLabels(arbSize(maxAuthors), text),
        descriptor: arbLabels(arbSize(maxDescriptors), text),
        divisions: arbDivisions(text, maxDivisions),
        geo: arbGeo(text),
        system: fc.uniqueArray(fc.record({ id: arbSystemId, text }), {
          selector: (s) => s.id.toLowerCase(),
          maxLength: 4,
        }),
      })
      .chain(({ author, descriptor, divisions, geo, system }) =>
        fc
          .record({
            author_count: arbCounts(
              system,
              author.map((a) => a.id),
            ),
            division_count: arbCounts(
              system,
              divisions.division.map((d) => d.id),
            ),
          })
          .map(
            (counts): RefSources => ({
              author,
              country: geo.country,
              state: geo.state,
              county: geo.county,
              division: divisions.division,
              category: divisions.category,
              descriptor,
              system,
              ...counts,
            }),
          ),
      );
  });
}

// ---------------------------------------------------------------- requests

type Param = readonly [name: string, value: string];

function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return 'x'; // a lone surrogate cannot be encoded; never produced by the arbitraries below
  }
}

function buildUrl(path: string, params: readonly Param[], plusForSpace: boolean): string {
  if (params.length === 0) return path;
  const enc = (s: string): string => (plusForSpace ? encode(s).replace(/%20/g, '+') : encode(s));
  return path + '?' + params.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

function arbNameCase(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(name, name.toLowerCase(), name.toUpperCase()),
    fc
      .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
      .map((ups) => Array.from(name, (ch, i) => (ups[i] ? ch.toUpperCase() : ch.toLowerCase())).join('')),
  );
}

function arbParam(name: string, value: fc.Arbitrary<string>): fc.Arbitrary<Param> {
  return fc.tuple(arbNameCase(name), value);
}

const isWordChar = (ch: string): boolean => /[\p{L}\p{N}\p{M}]/u.test(ch);

const stripMarks = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '');

/** Term cut from a label: a prefix of a suffix that starts at a word start, then maybe disguised. */
function arbTermFromLabel(label: string): fc.Arbitrary<string> {
  const cps = Array.from(label);
  const starts = cps
    .map((_, i) => i)
    .filter((i) => isWordChar(cps[i] as string) && (i === 0 || !isWordChar(cps[i - 1] as string)));
  if (starts.length === 0) return fc.constant(label);
  return fc
    .constantFrom(...starts)
    .chain((start) =>
      fc.integer({ min: 1, max: cps.length - start }).map((len) => cps.slice(start, start + len).join('')),
    )
    .chain((cut) =>
      fc.constantFrom(
        cut,
        cut,
        cut.toUpperCase(),
        cut.toLowerCase(),
        stripMarks(cut),
        cut.replace(/ß/g, 'ss').replace(/ø/gi, 'o'),
        cut.replace(/ /g, '  '),
        cut.replace(/ /g, ', '),
        ' ' + cut + '.',
        '(' + cut,
        cut + ' zzzz extra words',
      ),
    );
}

const JUNK_TERMS = [
  'qqzzxq',
  'zz top',
  '!!!',
  ' ',
  '%',
  '+',
  '&',
  '=',
  '#',
  '?',
  '%zz',
  '😀',
  'x'.repeat(300),
  'smith zzz',
  'ö',
  'ss',
  'i̇',
];

function arbTerm(labels: readonly string[]): fc.Arbitrary<string> {
  const junk = fc.oneof(fc.constantFrom(...JUNK_TERMS), fc.string({ unit: 'grapheme', maxLength: 6 }));
  if (labels.length === 0) return junk;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...labels).chain(arbTermFromLabel), weight: 6 },
    { arbitrary: fc.constantFrom(...labels).map((l) => l + ' ' + l), weight: 1 }, // longer than the label
    { arbitrary: junk, weight: 2 },
  );
}

function arbPageValue(listLength: number, pageSize: number): fc.Arbitrary<string> {
  const last = Math.max(1, Math.ceil(listLength / pageSize));
  return fc.oneof(
    {
      arbitrary: fc.constantFrom('1', '2', String(last), String(last), String(last + 1), '01', '0' + String(last), ''),
      weight: 3,
    },
    { arbitrary: fc.integer({ min: 1, max: last + 2 }).map(String), weight: 3 },
    { arbitrary: fc.constant('99999999999999999999'), weight: 1 },
    { arbitrary: fc.constantFrom('0', '00', 'abc', '-1', '1.5', '1e1', ' 1', '0x1'), weight: 1 },
  );
}

/** Ids that look valid but name no item: the smallest gap and one past the largest. */
function missingIds(ids: readonly number[]): [number, number] {
  let gap = 0;
  while (ids.includes(gap)) gap++;
  return [gap, ids.length === 0 ? 3 : Math.max(...ids) + 1];
}

function arbIdValue(ids: readonly number[]): fc.Arbitrary<string> {
  const absent = fc.constantFrom(...missingIds(ids).map(String), '', '99999999999999999999', String(2 ** 53 + 1));
  const invalid = fc.constantFrom('x1', '-1', '1.0', '1e2', ' 1');
  const existing = ids.length === 0 ? absent : fc.constantFrom(...ids).map(String);
  return fc.oneof(
    { arbitrary: existing, weight: 4 },
    { arbitrary: existing.map((i) => (/^\d+$/.test(i) ? '00' + i : i)), weight: 1 },
    { arbitrary: absent, weight: 2 },
    { arbitrary: invalid, weight: 1 },
  );
}

function arbSystemValue(src: RefSources): fc.Arbitrary<string> {
  const unknown = fc.constantFrom('nosuch', 'gbif ', '%', 'GBIF');
  if (src.system.length === 0)
    return fc.oneof({ arbitrary: fc.constant(''), weight: 3 }, { arbitrary: unknown, weight: 1 });
  const known = fc.constantFrom(...src.system.map((s) => s.id));
  const swapCase = (s: string): string =>
    Array.from(s, (ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
  return fc.oneof(
    { arbitrary: known, weight: 6 },
    { arbitrary: known.map(swapCase), weight: 1 },
    { arbitrary: unknown, weight: 1 },
  );
}

const arbChildValue = fc.oneof(
  { arbitrary: fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'False', ''), weight: 4 },
  { arbitrary: fc.constantFrom('maybe', 'yes', '2', '01'), weight: 1 },
);

const arbUnknownParam: fc.Arbitrary<Param> = fc.oneof(
  fc.tuple(fc.constant('q'), fc.constantFrom('smi', 'john', '')),
  fc.tuple(fc.constant('_type'), fc.constantFrom('query', 'query:append')),
  fc.tuple(fc.constantFrom('foo', 'callback', 'Terms', 'pages'), fc.constantFrom('bar', '1', '')),
);

/**
 * A query string of optional params in random order, sometimes with one repeated.
 * `rare` params appear a third of the time (Id, which would hide Term and Page).
 */
function arbQuery(path: string, params: fc.Arbitrary<Param>[], rare: fc.Arbitrary<Param>[] = []): fc.Arbitrary<string> {
  const maybe = (p: fc.Arbitrary<Param>, absentWeight: number): fc.Arbitrary<Param | null> =>
    fc.oneof({ arbitrary: fc.constant(null), weight: absentWeight }, { arbitrary: p, weight: 1 });
  return fc
    .tuple(
      fc.tuple(...params.map((p) => maybe(p, 1)), ...rare.map((p) => maybe(p, 2))),
      fc.array(arbUnknownParam, { maxLength: 2 }),
      fc.boolean(),
    )
    .chain(([picked, unknown, plus]) => {
      const present = [...picked.filter((p): p is Param => p !== null), ...unknown];
      return fc
        .tuple(arbPermutation(present), fc.option(fc.constantFrom(...params, ...rare), { freq: 5 }))
        .chain(([ordered, dup]) => (dup === null ? fc.constant(ordered) : dup.map((d) => [...ordered, d])))
        .map((ordered) => buildUrl(path, ordered, plus));
    });
}

function arbListRequest(
  src: RefSources,
  pageSize: number,
  kind: 'author' | 'division' | 'descriptor',
): fc.Arbitrary<string> {
  const path = `/${kind}.json`;
  const items: readonly Label[] = src[kind];
  const labels = kind === 'division' ? [...src.division, ...src.category].map((x) => x.text) : items.map((x) => x.text);
  const ids = kind === 'division' ? [...src.division, ...src.category].map((x) => x.id) : items.map((x) => x.id);
  const params: fc.Arbitrary<Param>[] = [
    arbParam('Page', arbPageValue(items.length, pageSize)),
    arbParam('Term', arbTerm(labels)),
    arbParam('System', arbSystemValue(src)), // also sent to descriptor, which ignores it
  ];
  if (kind === 'division') params.push(arbParam('child', arbChildValue));
  return arbQuery(path, params, [arbParam('Id', arbIdValue(ids))]);
}

/** Digits for a path id: existing (maybe zero-padded) or missing. */
function arbPathId(ids: readonly number[]): fc.Arbitrary<string> {
  const missing = fc.constantFrom(...missingIds(ids).map(String));
  if (ids.length === 0) return missing;
  const existing = fc.constantFrom(...ids);
  return fc.oneof(
    { arbitrary: existing.map(String), weight: 4 },
    { arbitrary: existing.map((i) => '0' + String(i)), weight: 1 },
    { arbitrary: missing, weight: 1 },
  );
}

/** A path id for `n`: mostly as is, sometimes zero-padded. */
function arbPadded(n: number): fc.Arbitrary<string> {
  return fc.constantFrom(String(n), String(n), String(n), '0' + String(n), '000' + String(n));
}

function arbGeoRequest(src: RefSources, pageSize: number): fc.Arbitrary<string> {
  const countryIds = src.country.map((c) => c.id);
  const stateIds = src.state.map((s) => s.id);
  const allFips = src.county.map((c) => c.FIPS);
  const ignored: fc.Arbitrary<Param>[] = [
    arbParam('Page', arbPageValue(0, pageSize)),
    arbParam('Id', arbIdValue(countryIds)),
    arbParam('System', arbSystemValue(src)),
  ];
  // Each segment: mostly the intended id, sometimes any other id of its kind (which may
  // belong to another parent) or a missing one.
  const seg = (n: number, others: readonly number[]): fc.Arbitrary<string> =>
    fc.oneof({ arbitrary: arbPadded(n), weight: 5 }, { arbitrary: arbPathId(others), weight: 1 });

  const countryList = arbQuery('/country.json', [
    arbParam('Term', arbTerm(src.country.map((x) => x.text))),
    ...ignored,
  ]);
  const byCountry = fc.constantFrom(...src.country).chain((country) => {
    const states = src.state.filter((s) => s.country_id === country.id);
    const c = seg(country.id, countryIds);
    return fc.oneof(
      c.chain((cs) => arbQuery(`/country/${cs}.json`, ignored)),
      c.chain((cs) =>
        arbQuery(`/country/${cs}/state.json`, [arbParam('Term', arbTerm(states.map((s) => s.text))), ...ignored]),
      ),
    );
  });
  if (src.state.length === 0) return fc.oneof(countryList, byCountry);

  const byState = fc.constantFrom(...src.state).chain((state) => {
    const fips = src.county
      .filter((x) => x.country_id === state.country_id && x.state_id === state.id)
      .map((x) => x.FIPS);
    const c = seg(state.country_id, countryIds);
    const s = seg(state.id, stateIds);
    const f = fips.length === 0 ? arbPathId(allFips) : fc.constantFrom(...fips).chain((n) => seg(n, allFips));
    return fc.oneof(
      fc.tuple(c, s).chain(([cs, ss]) => arbQuery(`/country/${cs}/state/${ss}.json`, ignored)),
      fc.tuple(c, s).chain(([cs, ss]) => arbQuery(`/country/${cs}/state/${ss}/county.json`, ignored)),
      fc.tuple(c, s, f).chain(([cs, ss, fs]) => arbQuery(`/country/${cs}/state/${ss}/county/${fs}.json`, ignored)),
    );
  });
  return fc.oneof(
    { arbitrary: countryList, weight: 2 },
    { arbitrary: byCountry, weight: 3 },
    { arbitrary: byState, weight: 5 },
  );
}

const BAD_PATHS = [
  '/',
  '/author',
  '/author.JSON',
  '/Author.json',
  '/authors.json',
  '/author.json/',
  '//author.json',
  '/author/page/1.json',
  '/lookup.json',
  '/division.json.json',
  '/country',
  '/country/1',
  '/country/.json',
  '/country/abc.json',
  '/country/-1.json',
  '/country/1.5.json',
  '/country/1e3.json',
  '/country/+1.json',
  '/country/1/states.json',
  '/country/1/state/county.json',
  '/country/1/state/1/county/1/x.json',
  '/country/1/county.json',
  '/Country/1.json',
  '/country/1/State.json',
];

/** Requests of the original service (path + query, always starting with "/") against `src`. */
export function arbRequest(src: RefSources, pageSize: number): fc.Arbitrary<string> {
  const choices: { arbitrary: fc.Arbitrary<string>; weight: number }[] = [
    { arbitrary: arbListRequest(src, pageSize, 'author'), weight: 5 },
    { arbitrary: arbListRequest(src, pageSize, 'division'), weight: 4 },
    { arbitrary: arbListRequest(src, pageSize, 'descriptor'), weight: 2 },
    {
      arbitrary: fc.constantFrom(...BAD_PATHS).chain((p) => arbQuery(p, [arbParam('Page', fc.constant('1'))])),
      weight: 1,
    },
  ];
  if (src.country.length > 0) choices.push({ arbitrary: arbGeoRequest(src, pageSize), weight: 5 });
  return fc.oneof(...choices);
}

// ---------------------------------------------------------------- CSV

/** How toCsvFiles lays out the files; every variant is valid input per docs/contract.md §5. */
export interface CsvStyle {
  /** Drives the column orders, which ids get zero-padded and which fields get needless quotes. */
  seed: number;
  shuffleColumns: boolean;
  bom: boolean;
  crlf: boolean;
  leadingZeros: boolean;
  /** Quote some fields that need no quotes (still RFC 4180). */
  extraQuotes: boolean;
  finalNewline: boolean;
}

export const arbCsvStyle: fc.Arbitrary<CsvStyle> = fc.record({
  seed: fc.integer(),
  shuffleColumns: fc.boolean(),
  bom: fc.boolean(),
  crlf: fc.boolean(),
  leadingZeros: fc.boolean(),
  extraQuotes: fc.boolean(),
  finalNewline: fc.boolean(),
});

const PLAIN_STYLE: CsvStyle = {
  seed: 0,
  shuffleColumns: false,
  bom: false,
  crlf: false,
  leadingZeros: false,
  extraQuotes: false,
  finalNewline: true,
};

type Kind = 'int' | 'text' | 'float';
type FileSpec = {
  file: string;
  rows: readonly Record<string, unknown>[];
  columns: readonly (readonly [string, Kind])[];
};

export const CSV_FILES = [
  'author.csv',
  'country.csv',
  'state.csv',
  'county.csv',
  'division.csv',
  'category.csv',
  'descriptor.csv',
  'system.csv',
  'author_count.csv',
  'division_count.csv',
] as const;

/** The ten source files of docs/contract.md §5 as RFC 4180 CSV text with a header row. */
export function toCsvFiles(src: RefSources, style: Partial<CsvStyle> = {}): Record<string, string> {
  const s: CsvStyle = { ...PLAIN_STYLE, ...style };
  const rnd = mulberry32(s.seed);
  const label = [
    ['id', 'int'],
    ['text', 'text'],
  ] as const;
  const counts = [
    ['system', 'text'],
    ['id', 'int'],
    ['count', 'int'],
  ] as const;
  const specs: FileSpec[] = [
    { file: 'author.csv', rows: src.author, columns: label },
    { file: 'country.csv', rows: src.country, columns: label },
    {
      file: 'state.csv',
      rows: src.state,
      columns: [
        ['id', 'int'],
        ['country_id', 'int'],
        ['text', 'text'],
      ],
    },
    {
      file: 'county.csv',
      rows: src.county,
      columns: [
        ['country_id', 'int'],
        ['state_id', 'int'],
        ['FIPS', 'int'],
        ['county', 'text'],
        ['latitudeCenter', 'float'],
        ['LongitudeCenter', 'float'],
      ],
    },
    { file: 'division.csv', rows: src.division, columns: label },
    {
      file: 'category.csv',
      rows: src.category,
      columns: [
        ['id', 'int'],
        ['division_id', 'int'],
        ['text', 'text'],
      ],
    },
    { file: 'descriptor.csv', rows: src.descriptor, columns: label },
    {
      file: 'system.csv',
      rows: src.system,
      columns: [
        ['id', 'text'],
        ['text', 'text'],
      ],
    },
    { file: 'author_count.csv', rows: src.author_count, columns: counts },
    { file: 'division_count.csv', rows: src.division_count, columns: counts },
  ];

  const quote = (field: string): string =>
    /[",\r\n]/.test(field) || (s.extraQuotes && rnd() < 0.3) ? '"' + field.replace(/"/g, '""') + '"' : field;
  const cell = (value: unknown, kind: Kind): string => {
    if (kind === 'text') return String(value);
    const plain = String(value as number);
    return kind === 'int' && s.leadingZeros && rnd() < 0.3 ? '0'.repeat(1 + Math.floor(rnd() * 3)) + plain : plain;
  };
  const eol = s.crlf ? '\r\n' : '\n';

  const out: Record<string, string> = {};
  for (const spec of specs) {
    const columns = [...spec.columns];
    if (s.shuffleColumns) {
      for (let i = columns.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [columns[i], columns[j]] = [columns[j] as (typeof columns)[number], columns[i] as (typeof columns)[number]];
      }
    }
    const lines = [
      columns.map(([name]) => quote(name)).join(','),
      ...spec.rows.map((row) => columns.map(([name, kind]) => quote(cell(row[name], kind))).join(',')),
    ];
    out[spec.file] = (s.bom ? '\uFEFF' : '') + lines.join(eol) + (s.finalNewline ? eol : '');
  }
  return out;
}
