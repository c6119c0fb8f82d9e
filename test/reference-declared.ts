// Brute-force reference of any declared list (docs/lists.md), written from the
// docs alone and independent of src/ but for the Declaration it reads: the
// sources are parsed and sorted once, and every request filters whole lists;
// clarity over speed. For the lookup-service preset it answers exactly what
// test/reference.ts answers, error wording included.
import type { Declaration, FieldSpec, ListSpec } from '../src/config/declaration.js';
import { fold } from './reference.js';

export type Id = number | string;

/** One row of a list's source, as docs/lists.md makes it an item. */
export interface DeclaredItem {
  id: Id;
  label: string;
  /** What Term's tiers 1 to 3 are reckoned on: the label, or the list's `search.text` made from the item's fields. */
  text: string;
  /** The row's parent columns, each as an id of the ancestor it names (outermost first). */
  up: Id[];
  /** The item's own keys, in `keys` order. */
  own: Record<string, unknown>;
}

export interface DeclaredResponse {
  status: number;
  body: unknown;
}

// ---------------------------------------------------------------- sources

/** RFC 4180 records of `text` (a BOM dropped, LF or CRLF ends, blank lines skipped). */
export function parseCsv(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const end = (): void => {
    record.push(field);
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
    field = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (s[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      end();
    } else field += c;
  }
  if (field !== '' || record.length > 0) end();
  return records;
}

/** A file's rows as cell getters; header names match case-insensitively, and an absent file has no rows. */
export function readRows(
  files: Record<string, string>,
  file: string,
  delimiter: string,
): ((column: string) => string)[] {
  const [header = [], ...rows] = parseCsv(files[file] ?? '', delimiter);
  const index = new Map(header.map((h, i) => [h.toLowerCase(), i] as const).reverse());
  return rows.map((row) => (column) => row[index.get(column.toLowerCase()) ?? -1] ?? '');
}

function ancestorsOf(list: ListSpec, byName: ReadonlyMap<string, ListSpec>): ListSpec[] {
  const out: ListSpec[] = [];
  for (let p = list.parent; p; p = byName.get(p.list)!.parent) out.unshift(byName.get(p.list)!);
  return out;
}

/** The items of `list` under the ancestor items `chain` (outermost first): `all` for a list without a parent. */
export function itemsUnder(
  list: ListSpec,
  chain: readonly DeclaredItem[],
  all: readonly DeclaredItem[],
): DeclaredItem[] {
  if (!list.parent) return [...all];
  if (list.parent.columns.length === 1) return all.filter((it) => it.up[0] === chain[chain.length - 1]!.id);
  return all.filter((it) => it.up.every((id, i) => id === chain[i]!.id));
}

// ---------------------------------------------------------------- ranking

/** What a list declares of its order and its Term search beyond the label (docs/lists.md "Order", "Term search"). */
export interface Ranking {
  /** The order keys, first key first: a declared field, descending or not. Ties fall back to the default order. */
  order: { field: FieldSpec; descending: boolean }[];
  /** `search.text`: a template over the list's fields, by key or column; the label when undefined. */
  text?: string;
  /** `search.exact`: an item whose text, searched column or child's label folds to the Term ranks first (tier 0). */
  exact: boolean;
  /** `search.columns`: string fields searched after the text (tiers 4 and 5). */
  columns: FieldSpec[];
  /** `"match": "phrase"`: the Term as one phrase at a word start (tiers 0, 1, 2 and 4); else the words rule. */
  phrase: boolean;
  /** The words rule forgives typos when nothing matches as typed, unless `"typos": false`; the phrase rule never. */
  typos: boolean;
}

/** A list's ranking as its Declaration says it; the text's template names fields, which the reference reads itself. */
export function rankingOf(list: ListSpec): Ranking {
  const { order = [], search } = list;
  const phrase = search ? search.phrase === true : false;
  return {
    order: order.map(({ field, descending }) => ({ field: list.fields[field]!, descending })),
    ...(search && search.text ? { text: search.text.template } : {}),
    exact: search ? search.exact === true : false,
    columns: search ? search.fields.map((i) => list.fields[i]!) : [],
    phrase,
    typos: search ? !phrase && search.noTypos !== true : false,
  };
}

/** The field a search text's placeholder names: by key, else by column (any case, as headers match). */
export function fieldNamed(list: ListSpec, name: string): FieldSpec {
  const field =
    list.fields.find((f) => f.key === name) ?? list.fields.find((f) => f.column.toLowerCase() === name.toLowerCase());
  if (!field) throw new Error(`lists.${list.name}.search.text names ${name}, no field of the list`);
  return field;
}

/** Ids, references, counts, numbers and group ids are read without the white space around them; texts as written. */
const bare = (cell: string): string => cell.trim();
const idOfCell = (list: ListSpec, cell: string): Id => (list.id.type === 'integer' ? Number(bare(cell)) : bare(cell));

/** Every list's items in list order (docs/lists.md "Order"), by list name. */
export function declaredItems(d: Declaration, files: Record<string, string>): Map<string, DeclaredItem[]> {
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  const out = new Map<string, DeclaredItem[]>();
  for (const list of d.lists) {
    const { text, order } = rankingOf(list);
    const ancestors = ancestorsOf(list, byName);
    // One parent column names the parent; one per ancestor names them all.
    const upLists = list.parent?.columns.length === 1 ? ancestors.slice(-1) : ancestors;
    const items = readRows(files, list.source.file, list.source.delimiter).map((cell): DeclaredItem => {
      const id = idOfCell(list, cell(list.id.column));
      const label = list.label.template.replace(/\{([^{}]*)\}/g, (_, column: string) => cell(column));
      const values = new Map<string, unknown>([
        [list.id.key, id],
        [list.label.key, label],
      ]);
      // An optional field's empty cell (nothing but white space) is null.
      for (const f of list.fields)
        values.set(
          f.key,
          f.optional && bare(cell(f.column)) === ''
            ? null
            : f.type === 'string'
              ? cell(f.column)
              : Number(bare(cell(f.column))),
        );
      const up = (list.parent?.columns ?? []).map((column, i) => idOfCell(upLists[i]!, cell(column)));
      // The client makes the search text from what an item carries: a number field as its JSON text, not its cell's.
      const searchText =
        text === undefined
          ? label
          : text.replace(/\{([^{}]*)\}/g, (_, name: string) => String(values.get(fieldNamed(list, name).key) ?? ''));
      return { id, label, text: searchText, up, own: Object.fromEntries(list.keys.map((k) => [k, values.get(k)])) };
    });
    // Each order key in turn, then the default order, which orders any two items.
    const compare = (a: DeclaredItem, b: DeclaredItem): number => {
      for (const { field, descending } of order) {
        const [x, y] = [a.own[field.key] as string | number | null, b.own[field.key] as string | number | null];
        // Empty optional cells last, ascending or descending.
        if (x === null || y === null) {
          if (x !== y) return x === null ? 1 : -1;
          continue;
        }
        const c = cmp(x, y);
        if (c !== 0) return descending ? -c : c;
      }
      return compareItems(a, b);
    };
    out.set(list.name, items.sort(compare));
  }
  return out;
}

/** Numbers by value, strings by code unit (so '' comes first). */
const cmp = <T extends string | number>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/** The default order: fold(label), then the label, then the id (integers by value, strings by code unit). */
function compareItems(a: DeclaredItem, b: DeclaredItem): number {
  const byId = typeof a.id === 'number' && typeof b.id === 'number' ? cmp(a.id, b.id) : cmp(String(a.id), String(b.id));
  return cmp(fold(a.label), fold(b.label)) || cmp(a.label, b.label) || byId;
}

/** The canonical form of an id as a path segment or `Id` value gives it, or undefined when it is malformed. */
function idKey(list: ListSpec, raw: string): string | undefined {
  if (list.id.type === 'integer') return /^\d+$/.test(raw) ? raw.replace(/^0+(?=\d)/, '') : undefined;
  return new RegExp(`^[${list.id.chars}]{1,64}$`).test(raw) ? raw : undefined;
}

const hasId =
  (key: string) =>
  (item: DeclaredItem): boolean =>
    String(item.id) === key;

/** q (folded) starts a word of the folded text: the phrase at a word start. */
const startsAWord = (folded: string, q: string): boolean => (' ' + folded).includes(' ' + q);

/** A folded text's words: its parts between spaces (none for an empty text). */
const wordsOf = (folded: string): string[] => (folded === '' ? [] : folded.split(' '));

/** Every word of `qs` starts (is a prefix of) one of `words`; two words of q may start the same word. */
const everyWordStarts = (qs: readonly string[], words: readonly string[]): boolean =>
  qs.every((w) => words.some((x) => x.startsWith(w)));

/**
 * The phrase rule's tier (docs/lists.md "The phrase rule") of a text and its
 * searched columns' values for folded q (non-empty): 0 when exact and one of
 * them folds to q, 1 when the folded text starts with q, 2 when q starts a
 * later word of it, 4 when q starts a word of a column's value; undefined when
 * none matches.
 */
function phraseTier(text: string, columns: readonly string[], q: string, exact: boolean): number | undefined {
  const f = fold(text);
  const cs = columns.map(fold);
  if (exact && (f === q || cs.includes(q))) return 0;
  if (f.startsWith(q)) return 1;
  if (startsAWord(f, q)) return 2;
  if (cs.some((c) => startsAWord(c, q))) return 4;
  return undefined;
}

/**
 * The words rule's tier (docs/lists.md "The words rule", its table) of a text
 * and its searched columns' values for folded q (non-empty): the phrase rule's
 * tiers 0, 1 and 2; 3 when every word of q starts a word of the text; 4 when q
 * starts a word of a column's value; 5 when every word of q starts a word of
 * the text or of a column, the columns' words needed; undefined when some word
 * of q starts no word of them.
 */
function wordsTier(text: string, columns: readonly string[], q: string, exact: boolean): number | undefined {
  const f = fold(text);
  const cs = columns.map(fold);
  const qs = q.split(' ');
  if (exact && (f === q || cs.includes(q))) return 0;
  if (f.startsWith(q)) return 1;
  if (startsAWord(f, q)) return 2;
  if (everyWordStarts(qs, wordsOf(f))) return 3;
  if (cs.some((c) => startsAWord(c, q))) return 4;
  if (everyWordStarts(qs, [f, ...cs].flatMap(wordsOf))) return 5;
  return undefined;
}

// ---------------------------------------------------------------- typos

/**
 * How many typos a word of q may have (docs/lists.md "Typos"): 1 from 5 code
 * points, 2 from 9, none for a shorter word or one holding a digit.
 */
export function typoAllowance(word: string): number {
  if (/\p{N}/u.test(word)) return 0;
  const n = Array.from(word).length;
  return n >= 9 ? 2 : n >= 5 ? 1 : 0;
}

/**
 * The optimal string alignment distance of `a` to each prefix of `b` (code
 * points): element j is the fewest insertions, deletions, substitutions and
 * swaps of two adjacent letters, no letter edited twice, that make `a` into
 * the first j code points of `b`. The last row of the textbook table.
 */
function prefixDistances(a: readonly string[], b: readonly string[]): number[] {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]!;
}

/**
 * The fewest typos with which the word `w` of q starts the word `x`
 * (docs/lists.md "Typos"): 0 when it starts it as typed; else, when `w` may
 * have typos and its first letter is `x`'s (the first letter is never a
 * typo), the least distance of the rest of `w` to the rest of a prefix of `x`,
 * if within what `w` may have; else Infinity.
 */
export function typosToStart(w: string, x: string): number {
  if (x.startsWith(w)) return 0;
  const allowed = typoAllowance(w);
  const [first, ...rest] = Array.from(w);
  const [xFirst, ...xRest] = Array.from(x);
  if (allowed === 0 || first !== xFirst) return Infinity;
  const fewest = Math.min(...prefixDistances(rest, xRest));
  return fewest <= allowed ? fewest : Infinity;
}

/** The typos of words `words` (the words of some texts together) for q's words: the sum over q's words of the fewest each needs to start one of them. */
function typosOf(qs: readonly string[], words: readonly string[]): number {
  let sum = 0;
  for (const w of qs) sum += Math.min(Infinity, ...words.map((x) => typosToStart(w, x)));
  return sum;
}

// ---------------------------------------------------------------- requests

const ok = (body: unknown): DeclaredResponse => ({ status: 200, body });
const fail = (status: 400 | 404, error: string): DeclaredResponse => ({ status, body: { error } });
const envelope = (items: unknown[], total = items.length) => ({ total, items });

function splitUrl(url: string): { path: string; search: string } {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) {
    const u = new URL(url);
    return { path: u.pathname, search: u.search };
  }
  const noHash = url.split('#')[0]!;
  const q = noHash.indexOf('?');
  return q < 0 ? { path: noHash, search: '' } : { path: noHash.slice(0, q), search: noHash.slice(q) };
}

/** Names match case-insensitively, the first occurrence wins, and an empty value is absent. */
function parseQuery(search: string): (name: string | undefined) => string | undefined {
  const first = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(search)) if (!first.has(k.toLowerCase())) first.set(k.toLowerCase(), v);
  return (name) => (name === undefined ? undefined : first.get(name.toLowerCase()) || undefined);
}

function paginate<T>(xs: readonly T[], page: bigint, pageSize: number): T[] {
  const start = (page - 1n) * BigInt(pageSize);
  return start >= BigInt(xs.length) ? [] : xs.slice(Number(start), Number(start) + pageSize);
}

/**
 * Answers `url` (a path and its query, or a whole URL) as the lists `declaration`
 * declares, over the sources `files` (by file name), `pageSize` items a page.
 */
export function createDeclaredReference(
  declaration: Declaration,
  files: Record<string, string>,
  pageSize: number,
): (url: string) => DeclaredResponse {
  const byName = new Map(declaration.lists.map((l) => [l.name, l]));
  const items = declaredItems(declaration, files);
  const routed = declaration.lists
    .filter((l) => !l.embeddedIn)
    .map((l) => ({ list: l, chain: [...ancestorsOf(l, byName), l] }));
  const g = declaration.groups;
  const groupIds = g ? readRows(files, g.source.file, g.source.delimiter).map((cell) => bare(cell(g.id))) : [];
  const counts = new Map(
    declaration.lists.flatMap((l) => {
      if (!l.counts) return [];
      const c = l.counts;
      const rows = readRows(files, c.source.file, c.source.delimiter).map((cell) => ({
        group: bare(cell(c.group)),
        id: idOfCell(l, cell(c.id)),
        count: Number(bare(cell(c.count))),
      }));
      return [[l.name, rows] as const];
    }),
  );

  const under = (list: ListSpec, chain: readonly DeclaredItem[]): DeclaredItem[] =>
    itemsUnder(list, chain, items.get(list.name)!);
  const childList = (list: ListSpec): ListSpec | undefined => list.children && byName.get(list.children.list);
  const childrenOf = (list: ListSpec, parent: DeclaredItem): DeclaredItem[] =>
    childList(list) ? under(childList(list)!, [parent]) : [];

  /** An item's body: its own keys, then `count` under a group, then its children (which carry no count). */
  const render = (
    list: ListSpec,
    item: DeclaredItem,
    group: string | undefined,
    children = childrenOf(list, item),
  ): unknown => {
    const body: Record<string, unknown> = { ...item.own };
    if (group !== undefined && list.counts)
      body['count'] = counts.get(list.name)!.find((c) => c.group === group && c.id === item.id)?.count ?? 0;
    if (list.children) body[list.children.key] = children.map((c) => render(childList(list)!, c, undefined));
    return body;
  };

  /**
   * Items and children kept under folded query q (docs/lists.md "Term search" and "Children"), each in its best
   * tier, by tier, then in list order. A child is reckoned on its label alone; its parent keeps every child when its
   * own texts match, else only the matching ones, and ranks by the best of its own tier and theirs. Under the words
   * rule, when nothing matches as typed, the items with the fewest typos instead, in list order.
   */
  const search = (
    list: ListSpec,
    all: readonly DeclaredItem[],
    q: string,
  ): { item: DeclaredItem; children: DeclaredItem[] }[] => {
    const { exact, columns, phrase, typos } = rankingOf(list);
    const tierOf = phrase ? phraseTier : wordsTier;
    const valuesOf = (item: DeclaredItem): string[] => columns.map((f) => (item.own[f.key] as string | null) ?? '');
    const hits = all
      .flatMap((item, index) => {
        const children = childrenOf(list, item);
        if (q === '') return [{ item, children, tier: 0, index }];
        const own = tierOf(item.text, valuesOf(item), q, exact);
        const tiers = children.map((c) => tierOf(c.label, [], q, exact));
        const matching = [own, ...tiers].filter((t) => t !== undefined);
        if (matching.length === 0) return [];
        return [
          {
            item,
            children: own !== undefined ? children : children.filter((_, i) => tiers[i] !== undefined),
            tier: Math.min(...matching),
            index,
          },
        ];
      })
      .sort((a, b) => a.tier - b.tier || a.index - b.index);
    if (hits.length > 0 || !typos) return hits;
    // Nothing as typed: the fewest typos over the item's own texts together, or over one child's label alone.
    const qs = q.split(' ');
    const counted = all.map((item) => {
      const children = childrenOf(list, item);
      const own = typosOf(qs, [item.text, ...valuesOf(item)].map(fold).flatMap(wordsOf));
      const each = children.map((c) => typosOf(qs, wordsOf(fold(c.label))));
      const count = Math.min(own, ...each);
      return { item, children: own === count ? children : children.filter((_, i) => each[i] === count), count };
    });
    const fewest = Math.min(...counted.map((c) => c.count));
    return counted.filter((c) => c.count === fewest && fewest < Infinity);
  };

  /** A paged list's answer over `all`, its items (under its parent, for a list under one). */
  const paged = (
    list: ListSpec,
    all: readonly DeclaredItem[],
    get: ReturnType<typeof parseQuery>,
  ): DeclaredResponse => {
    const p = list.params;
    const pageRaw = get(p.page);
    if (pageRaw !== undefined && !(/^\d+$/.test(pageRaw) && BigInt(pageRaw) >= 1n))
      return fail(400, `${p.page}: expected an integer ≥ 1, got "${pageRaw}"`);
    const page = pageRaw === undefined ? 1n : BigInt(pageRaw);
    // Id is checked before child, but names a child when child is true: its form is the child list's then.
    const childRaw = get(p.child)?.toLowerCase();
    const childOk = childRaw === undefined || ['true', 'false', '1', '0'].includes(childRaw);
    const child = childRaw === 'true' || childRaw === '1';
    const idList = child ? childList(list)! : list;
    const idRaw = get(p.id);
    const key = idRaw === undefined ? undefined : idKey(idList, idRaw);
    if (idRaw !== undefined && key === undefined) {
      return fail(
        400,
        `${p.id}: expected ${idList.id.type === 'integer' ? 'digits' : `1 to 64 of ${idList.id.chars}`}, got "${idRaw}"`,
      );
    }
    if (!childOk) return fail(400, `${p.child}: expected true|false|1|0, got "${get(p.child)}"`);
    const group = get(p.group);
    if (group !== undefined && !groupIds.includes(group))
      return fail(404, `unknown ${g!.param.toLowerCase()} "${group}"`);
    if (key !== undefined) {
      if (!child) {
        const found = all.find(hasId(key));
        return ok(found ? envelope([render(list, found, group)]) : envelope([]));
      }
      const c = items.get(idList.name)!.find(hasId(key));
      const parent = c && all.find((it) => it.id === c.up[0]);
      return ok(c && parent ? envelope([render(list, parent, group, [c])]) : envelope([]));
    }
    const hits = search(list, all, fold(get(p.term) ?? ''));
    return ok(
      envelope(
        paginate(hits, page, pageSize).map((h) => render(list, h.item, group, h.children)),
        hits.length,
      ),
    );
  };

  return (url) => {
    const { path, search: query } = splitUrl(url);
    // Each segment percent-decoded on its own, as a static host reads a file's name (a malformed escape names nothing).
    const decode = (segment: string) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return '\0';
      }
    };
    const segments = /^\/.*\.json$/.test(path) ? path.slice(1, -'.json'.length).split('/').map(decode) : [];
    // Odd segments are a list (path, id, …, path), even ones an item (…, path, id).
    const route = routed.find(
      ({ list, chain }) =>
        (segments.length === 2 * chain.length - 1 || (list.items && segments.length === 2 * chain.length)) &&
        chain.every((l, k) => segments[2 * k] === l.path),
    );
    if (!route) return fail(404, `no such path ${path}`);
    const { list, chain } = route;
    const raws = segments.filter((_, i) => i % 2 === 1);
    const keys = raws.map((raw, k) => idKey(chain[k]!, raw));
    if (keys.some((k) => k === undefined)) return fail(404, `no such path ${path}`);
    const found: DeclaredItem[] = [];
    for (const [k, key] of keys.entries()) {
      const item = under(chain[k]!, found).find(hasId(key!));
      // test/reference.ts's wording: a missing item names its parent when the parent is top-level.
      if (!item)
        return fail(
          404,
          `unknown ${chain[k]!.name} ${raws[k]}${k === 1 ? ` of ${chain[0]!.name} ${found[0]!.id}` : ''}`,
        );
      found.push(item);
    }
    if (found.length === chain.length) return ok(render(list, found[found.length - 1]!, undefined));
    const get = parseQuery(query);
    const all = under(list, found);
    if (list.shape === 'paged') return paged(list, all, get);
    if (list.shape === 'grid')
      return ok({
        total: all.length > 0 ? 1 : 0,
        page: 1,
        records: all.length,
        rows: all.map((it) => render(list, it, undefined)),
      });
    const hits = search(list, all, fold(get(list.params.term) ?? ''));
    return ok(envelope(hits.map((h) => render(list, h.item, undefined))));
  };
}
