// Brute-force reference of the original lookup service (docs/contract.md §1–§2),
// written from that contract alone and independent of src/: the oracle property tests
// check the static tree and its client against. Every request filters and
// sorts the whole source arrays; clarity over speed.

export interface RefSources {
  author: { id: number; text: string }[];
  country: { id: number; text: string }[];
  state: { id: number; country_id: number; text: string }[];
  county: {
    country_id: number;
    state_id: number;
    FIPS: number;
    county: string;
    latitudeCenter: number;
    LongitudeCenter: number;
  }[];
  division: { id: number; text: string }[];
  category: { id: number; division_id: number; text: string }[];
  descriptor: { id: number; text: string }[];
  system: { id: string; text: string }[];
  author_count: { system: string; id: number; count: number }[];
  division_count: { system: string; id: number; count: number }[];
}

export interface RefResponse {
  status: number;
  body: unknown;
}

// ---------------------------------------------------------------- fold (§2)

const LETTER_MAP: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

const folded = new Map<string, string>();

/** fold, remembered: sorting a list folds every label many times over. */
export function fold(s: string): string {
  let f = folded.get(s);
  if (f === undefined) {
    if (folded.size > 1_000_000) folded.clear();
    folded.set(s, (f = foldOnce(s)));
  }
  return f;
}

function foldOnce(s: string): string {
  const lowered = s.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFC').toLowerCase();
  const mapped = Array.from(lowered, (ch) => LETTER_MAP[ch] ?? ch).join('');
  return mapped.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

// ---------------------------------------------------------------- order (§2)

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpLabel(a: { id: number; text: string }, b: { id: number; text: string }): number {
  return cmpStr(fold(a.text), fold(b.text)) || cmpStr(a.text, b.text) || a.id - b.id;
}

type County = RefSources['county'][number];

function cmpCounty(a: County, b: County): number {
  return cmpStr(fold(a.county), fold(b.county)) || cmpStr(a.county, b.county) || a.FIPS - b.FIPS;
}

function sortedByLabel<T extends { id: number; text: string }>(xs: readonly T[]): T[] {
  return [...xs].sort(cmpLabel);
}

/** A label's tier for a folded Term: 1 it starts with it, 2 a later word does, 0 no match. */
export function tierOf(text: string, q: string): 0 | 1 | 2 {
  const f = fold(text);
  if (!(' ' + f).includes(' ' + q)) return 0;
  return f.startsWith(q) ? 1 : 2;
}

/** Filters a list already in list order by Term and orders it by tier (stable). */
function searchLabels<T extends { id: number; text: string }>(sorted: readonly T[], q: string): T[] {
  if (q === '') return [...sorted];
  const hits = sorted.map((item, index) => ({ item, index, tier: tierOf(item.text, q) })).filter((h) => h.tier !== 0);
  hits.sort((a, b) => a.tier - b.tier || a.index - b.index);
  return hits.map((h) => h.item);
}

// ---------------------------------------------------------------- requests

function ok(body: unknown): RefResponse {
  return { status: 200, body };
}

function fail(status: 400 | 404, error: string): RefResponse {
  return { status, body: { error } };
}

function splitUrl(url: string): { path: string; search: string } {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) {
    const u = new URL(url);
    return { path: u.pathname, search: u.search };
  }
  const hash = url.indexOf('#');
  const noHash = hash < 0 ? url : url.slice(0, hash);
  const q = noHash.indexOf('?');
  return q < 0 ? { path: noHash, search: '' } : { path: noHash.slice(0, q), search: noHash.slice(q) };
}

/** First occurrence of each (lower-cased) name; an empty value counts as absent. */
function parseQuery(search: string): (name: string) => string | undefined {
  const first = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(search)) {
    const key = k.toLowerCase();
    if (!first.has(key)) first.set(key, v);
  }
  return (name) => {
    const v = first.get(name);
    return v === undefined || v === '' ? undefined : v;
  };
}

/** Canonical decimal form of a digit string: leading zeros stripped. */
function canonDigits(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

function sameId(id: number, digits: string): boolean {
  return String(id) === canonDigits(digits);
}

type Get = (name: string) => string | undefined;

interface ListParams {
  page: bigint;
  id: string | undefined;
  q: string;
  child: boolean;
  system: string | undefined;
}

type ListKind = 'author' | 'division' | 'descriptor';

function parseListParams(src: RefSources, kind: ListKind, get: Get): ListParams | RefResponse {
  const pageRaw = get('page');
  let page = 1n;
  if (pageRaw !== undefined) {
    if (!/^\d+$/.test(pageRaw)) return fail(400, `Page: expected an integer ≥ 1, got "${pageRaw}"`);
    page = BigInt(pageRaw);
    if (page < 1n) return fail(400, `Page: expected an integer ≥ 1, got "${pageRaw}"`);
  }
  const id = get('id');
  if (id !== undefined && !/^\d+$/.test(id)) return fail(400, `Id: expected digits, got "${id}"`);
  let child = false;
  if (kind === 'division') {
    const c = get('child');
    if (c !== undefined) {
      const lc = c.toLowerCase();
      if (lc === 'true' || lc === '1') child = true;
      else if (lc === 'false' || lc === '0') child = false;
      else return fail(400, `child: expected true|false|1|0, got "${c}"`);
    }
  }
  let system: string | undefined;
  if (kind !== 'descriptor') {
    system = get('system');
    if (system !== undefined && !src.system.some((s) => s.id === system)) {
      return fail(404, `unknown system "${system}"`);
    }
  }
  return { page, id, q: fold(get('term') ?? ''), child, system };
}

function paginate<T>(items: readonly T[], page: bigint, pageSize: number): T[] {
  const start = (page - 1n) * BigInt(pageSize);
  if (start >= BigInt(items.length)) return [];
  const s = Number(start);
  return items.slice(s, s + pageSize);
}

function envelope(total: number, items: unknown[]): { total: number; items: unknown[] } {
  return { total, items };
}

function countOf(counts: readonly { system: string; id: number; count: number }[], system: string, id: number): number {
  return counts.find((c) => c.system === system && c.id === id)?.count ?? 0;
}

function flatList(src: RefSources, kind: 'author' | 'descriptor', p: ListParams, pageSize: number): RefResponse {
  const counts = src.author_count;
  const render = (x: { id: number; text: string }): unknown =>
    p.system === undefined
      ? { id: x.id, text: x.text }
      : { id: x.id, text: x.text, count: countOf(counts, p.system, x.id) };
  const all = sortedByLabel(src[kind]);
  if (p.id !== undefined) {
    const idDigits = p.id;
    const found = all.find((x) => sameId(x.id, idDigits));
    return ok(found ? envelope(1, [render(found)]) : envelope(0, []));
  }
  const hits = searchLabels(all, p.q);
  return ok(envelope(hits.length, paginate(hits, p.page, pageSize).map(render)));
}

type Division = RefSources['division'][number];
type Category = RefSources['category'][number];

function divisionList(src: RefSources, p: ListParams, pageSize: number): RefResponse {
  const childrenOf = (d: Division): Category[] => sortedByLabel(src.category.filter((c) => c.division_id === d.id));
  const render = (d: Division, children: readonly Category[]): unknown => {
    const item: Record<string, unknown> = { id: d.id, text: d.text };
    if (p.system !== undefined) item['count'] = countOf(src.division_count, p.system, d.id);
    item['children'] = children.map((c) => ({ id: c.id, text: c.text }));
    return item;
  };
  const parents = sortedByLabel(src.division);

  if (p.id !== undefined) {
    const idDigits = p.id;
    if (p.child) {
      const cat = src.category.find((c) => sameId(c.id, idDigits));
      const parent = cat && src.division.find((d) => d.id === cat.division_id);
      return ok(cat && parent ? envelope(1, [render(parent, [cat])]) : envelope(0, []));
    }
    const parent = parents.find((d) => sameId(d.id, idDigits));
    return ok(parent ? envelope(1, [render(parent, childrenOf(parent))]) : envelope(0, []));
  }

  const q = p.q;
  const kept: { parent: Division; children: Category[]; tier: number; index: number }[] = [];
  parents.forEach((parent, index) => {
    const children = childrenOf(parent);
    if (q === '') {
      kept.push({ parent, children, tier: 0, index });
      return;
    }
    const parentTier = tierOf(parent.text, q);
    const childTiers = children.map((c) => tierOf(c.text, q));
    const matchingTiers = [parentTier, ...childTiers].filter((t) => t !== 0);
    if (matchingTiers.length === 0) return;
    const keptChildren = parentTier !== 0 ? children : children.filter((_, i) => childTiers[i] !== 0);
    kept.push({ parent, children: keptChildren, tier: Math.min(...matchingTiers), index });
  });
  kept.sort((a, b) => a.tier - b.tier || a.index - b.index);
  return ok(
    envelope(
      kept.length,
      paginate(kept, p.page, pageSize).map((k) => render(k.parent, k.children)),
    ),
  );
}

function labelEnvelope(items: readonly { id: number; text: string }[], get: Get): RefResponse {
  const hits = searchLabels(sortedByLabel(items), fold(get('term') ?? ''));
  return ok(
    envelope(
      hits.length,
      hits.map((x) => ({ id: x.id, text: x.text })),
    ),
  );
}

function renderCounty(c: County): unknown {
  return { FIPS: c.FIPS, LongitudeCenter: c.LongitudeCenter, county: c.county, latitudeCenter: c.latitudeCenter };
}

/** Answers one request of the original service, exactly as docs/contract.md §1–§2 says, the project's decisions included. */
export function referenceRequest(src: RefSources, pageSize: number, url: string): RefResponse {
  const { path, search } = splitUrl(url);
  const get = parseQuery(search);

  const list = /^\/(author|division|descriptor)\.json$/.exec(path);
  if (list) {
    const kind = list[1] as ListKind;
    const p = parseListParams(src, kind, get);
    if ('status' in p) return p;
    return kind === 'division' ? divisionList(src, p, pageSize) : flatList(src, kind, p, pageSize);
  }

  if (path === '/country.json') return labelEnvelope(src.country, get);

  const geo =
    /^\/country\/(\d+)\.json$/.exec(path) ??
    /^\/country\/(\d+)\/(state)\.json$/.exec(path) ??
    /^\/country\/(\d+)\/state\/(\d+)\.json$/.exec(path) ??
    /^\/country\/(\d+)\/state\/(\d+)\/(county)\.json$/.exec(path) ??
    /^\/country\/(\d+)\/state\/(\d+)\/county\/(\d+)\.json$/.exec(path);
  if (!geo) return fail(404, `no such path ${path}`);
  // Segments after the country: ids, or the words "state"/"county" for the lists.
  const [cDigits, sSeg, fSeg] = [geo[1] as string, geo[2], geo[3]];

  const country = src.country.find((c) => sameId(c.id, cDigits));
  if (!country) return fail(404, `unknown country ${cDigits}`);
  if (sSeg === undefined) return ok({ id: country.id, text: country.text });

  const states = src.state.filter((s) => s.country_id === country.id);
  if (sSeg === 'state') return labelEnvelope(states, get);

  const state = states.find((s) => sameId(s.id, sSeg));
  if (!state) return fail(404, `unknown state ${sSeg} of country ${country.id}`);
  if (fSeg === undefined) return ok({ id: state.id, text: state.text });

  const counties = src.county.filter((c) => c.country_id === country.id && c.state_id === state.id).sort(cmpCounty);
  if (fSeg === 'county') {
    return ok({ total: counties.length ? 1 : 0, page: 1, records: counties.length, rows: counties.map(renderCounty) });
  }
  const county = counties.find((c) => sameId(c.FIPS, fSeg));
  if (!county) return fail(404, `unknown county ${fSeg}`);
  return ok(renderCounty(county));
}
