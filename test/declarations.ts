// fast-check arbitraries over random declarations (docs/lists.md): the configs
// a user could write today, valid CSV sources for them, and requests over the
// declared paths. Drawn with fc.gen(), since every later choice depends on the
// earlier ones (a list's rows on its parent's items, a request on the rows).
import fc from 'fast-check';
import { checkConfig, type Declaration, type ListSpec } from '../src/config/declaration.js';
import { declaredItems, itemsUnder, readRows, type DeclaredItem, type Id } from './reference-declared.js';

export interface Declared {
  /** The JSON a user would write in reflist.config.json. */
  config: Record<string, unknown>;
  /** The sources, by file name; an absent file (of a list or groups declared optional) is an empty list. */
  files: Record<string, string>;
  pageSize: number;
  /** Built with wide pools for words whose matches' records take this many bytes at most (0: none, so the blocks answer). */
  wideBytes?: number;
  /** Built with the lists' records spilled to a file past this many bytes (0: every list's; Infinity: none). */
  spill?: number;
}

type G = fc.GeneratorValue;
const pick = <T>(g: G, xs: readonly T[]): T => g(() => fc.constantFrom(...xs));
const int = (g: G, min: number, max: number): number => g(fc.integer, { min, max });
const chance = (g: G, p: number): boolean => int(g, 0, 99) < p * 100;
/** A cell that is read without the white space around it (an id, a reference, a count, a number), now and then written with some. */
const spaced = (g: G, cell: string): string =>
  chance(g, 0.1) ? pick(g, [` ${cell}`, `${cell} `, `  ${cell}\u00A0`]) : cell;

// ---------------------------------------------------------------- texts and ids

// Folds collide (Müller/Muller, straße/Strasse, café with a combining accent),
// scripts mix, and some words hold a delimiter or a quote the CSV must escape.
const WORDS = [
  'Smith',
  'smith',
  'Smithson',
  'Müller',
  'Muller',
  'MÜLLER',
  'straße',
  'Strasse',
  'Ørsted',
  'Łódź',
  'café',
  'cafe\u0301',
  'Zoë',
  'José',
  'Ñandú',
  'ﬁsh',
  'Σωκράτης',
  'Иванов',
  '山田',
  '太郎',
  '東京都',
  'Æsir',
  'Þór',
  'x²',
  '１２３',
  '42',
  "O'Brien",
  'Jean-Luc',
  'de',
  'la',
  '"Quoted"',
  'a;b',
  'c,d',
  'tab\there',
];
const SEPARATORS = [' ', ' ', ', ', '-', ' (', ') ', '/', ' & ', '\n'];
// Long shared starts, so that labels differ only late and Terms match many.
const SHARED = [
  'Museum für Naturkunde ',
  'Muséum national d\u2019histoire ',
  'Universität ',
  '国立科学博物館 ',
  'Smith, Jo',
];

/** A label or a label's column: often one already used in the list, so duplicates are common; a long shared start `shared` of the time. */
function text(g: G, used: string[], shared = 0.25): string {
  if (used.length > 0 && chance(g, 0.2)) return pick(g, used);
  // The first words of one already used: a whole text that starts others, which an exact match ranks before them.
  const start = used.length > 0 && chance(g, 0.15) ? pick(g, used).split(' ') : [];
  if (start.length > 1) return start.slice(0, int(g, 1, start.length - 1)).join(' ');
  const words = Array.from({ length: int(g, 1, 3) }, (_, i) => (i === 0 ? '' : pick(g, SEPARATORS)) + pick(g, WORDS));
  const t = ((chance(g, shared) ? pick(g, SHARED) : '') + words.join('')).trim();
  used.push(t);
  return t;
}

/** Characters to draw string ids from for each `chars`: a few of each kind, so ids collide but for case. */
const ALPHABETS: Record<string, string> = {
  'A-Za-z0-9_-': 'aAbBzZ079_-',
  'A-Z0-9-': 'ABXZ079-',
  'a-z': 'abxz',
  '0-9A-F': '079ABF',
};

interface IdGen {
  type: 'integer' | 'string';
  chars: string;
  next: number;
  /** Every id issued, and (lower-cased) so no two differ only by case. */
  issued: Id[];
  seen: Set<string>;
}

function freshId(g: G, ids: IdGen): Id {
  if (ids.type === 'integer') return (ids.next += int(g, 1, 3));
  const alphabet = [...ALPHABETS[ids.chars]!];
  const drawn = Array.from({ length: pick(g, [1, 1, 2, 3, 5, 64]) }, () => pick(g, alphabet)).join('');
  // Deterministic on a collision: a redraw could loop forever while fast-check shrinks.
  let id = drawn;
  for (let k = 0; ids.seen.has(id.toLowerCase()); k++)
    id = drawn.slice(0, 60) + k.toString(alphabet.length).replace(/./g, (d) => alphabet[parseInt(d, 36)]!);
  ids.seen.add(id.toLowerCase());
  ids.issued.push(id);
  return id;
}

// ---------------------------------------------------------------- lists

/** What a list's rows say, for the lists under it: each item's id and its ancestors' ids. */
interface Planned {
  name: string;
  items: { id: Id; chain: Id[] }[];
  globalIds: boolean;
  depth: number;
}

type Kind = 'top' | 'nested' | 'embedded';

/** A declared field by the two names a config may call it. */
type Named = { key: string; column: string };

// Numbers often repeat, so that items tie on an order key and fall back to the next.
const FIELDS = [
  {
    key: 'city',
    column: 'city',
    config: 'string' as unknown,
    cell: (g: G, used: string[], shared?: number) => text(g, used, shared),
  },
  {
    key: 'pop',
    column: 'population',
    config: { column: 'population', type: 'integer', min: 0 },
    cell: (g: G) => spaced(g, String(chance(g, 0.5) ? pick(g, [0, 7, 1200]) : int(g, 0, 9_999_999))),
  },
  {
    key: 'lat',
    column: 'lat',
    // Optional: an empty cell is null, and an order puts it last both ways.
    config: { type: 'number', min: -90, max: 90, optional: true },
    cell: (g: G) => spaced(g, pick(g, ['-86.6417', '1e1', '0.5', '45', '-0.25', '89.999999', '', ''])),
  },
  // Alternative names: often another item's label, or the start many labels share, so a Term matches one item's
  // label and another's field, and one item's whole field (an exact match) and other labels' starts.
  {
    key: 'alt',
    column: 'alt_names',
    config: { column: 'alt_names', type: 'string', optional: true },
    cell: (g: G, used: string[], shared?: number) =>
      chance(g, 0.2) ? pick(g, ['', ' ']) : chance(g, 0.2) ? pick(g, SHARED).trim() : text(g, used, shared),
  },
];

class Builder {
  config: Record<string, unknown> = {};
  files: Record<string, string> = {};
  lists: Record<string, unknown> = {};
  groupIds: string[] = [];
  count = 0;
  /** Paged lists declared so far: a second one often names its page otherwise, so each host must read each list's own name. */
  paged = 0;
  constructor(readonly g: G) {}

  /** Declares list number `count`, writes its source, and declares the lists under it. */
  list(kind: Kind, parent?: Planned, grand?: Planned): Planned {
    const g = this.g;
    const name = `${pick(g, ['inst', 'family', 'genus', 'species', 'tag', 'place', 'work'])}${this.count++}`;
    const shape =
      kind === 'embedded'
        ? 'paged'
        : kind === 'top'
          ? pick(g, ['paged', 'paged', 'whole', 'whole', 'grid'])
          : pick(g, ['paged', 'whole', 'whole', 'grid']);
    const c: Record<string, unknown> = {};
    this.lists[name] = c; // declared before the lists under it, as a user would
    const ids: IdGen = {
      type: pick(g, ['integer', 'string']),
      chars: pick(g, Object.keys(ALPHABETS)),
      next: pick(g, [-1, 0, 99, 2 ** 53 - 4000]),
      issued: [],
      seen: new Set(),
    };
    const idColumn = pick(g, ['id', 'id', 'code']);
    const idKey = pick(g, ['id', 'id', 'code']);
    if (ids.type === 'string')
      c['id'] = {
        column: idColumn,
        type: 'string',
        ...(idKey !== 'id' ? { key: idKey } : {}),
        ...(ids.chars !== 'A-Za-z0-9_-' || chance(g, 0.3) ? { chars: ids.chars } : {}),
      };
    else if (idKey !== 'id') c['id'] = { column: idColumn, key: idKey };
    else if (idColumn !== 'id' || chance(g, 0.3)) c['id'] = idColumn;
    const labelKey = pick(g, ['text', 'text', 'label']);
    const [template, labelColumns] = pick(g, [
      ['{text}', ['text']],
      ['{name}', ['name']],
      ['{name} ({town})', ['name', 'town']],
      ['{family}, {given}', ['family', 'given']],
    ] as const);
    if (labelKey !== 'text')
      c['label'] = labelColumns.length === 1 ? { column: labelColumns[0], key: labelKey } : { template, key: labelKey };
    else if (template !== '{text}') c['label'] = labelColumns.length === 1 ? labelColumns[0] : template;
    // Children are an id and a label in their parent's items.
    const fields = kind === 'embedded' ? [] : g(() => fc.subarray(FIELDS));
    // Now and then the label's columns are string fields too, so that a search text can be made of them, and an order.
    const labelFields =
      kind !== 'embedded' && chance(g, 0.3)
        ? labelColumns.map((column) => ({ key: column === labelKey ? `${column}_` : column, column }))
        : [];
    const declaredFields = [
      ...fields.map((f) => [f.key, f.config]),
      ...labelFields.map((f) => [f.key, f.key === f.column ? 'string' : { column: f.column, type: 'string' }]),
    ];
    if (declaredFields.length > 0) c['fields'] = Object.fromEntries(declaredFields);
    const ownKeys = [idKey, labelKey, ...fields.map((f) => f.key), ...labelFields.map((f) => f.key)];
    if (kind !== 'embedded' && chance(g, 0.3))
      c['keys'] = g(() => fc.shuffledSubarray(ownKeys, { minLength: ownKeys.length, maxLength: ownKeys.length }));
    // A declared order: one or two fields, each ascending (+ or nothing) or descending (-), named by key or column.
    const fieldName = (f: Named): string => (chance(g, 0.5) ? f.key : f.column);
    const orderable = [...fields, ...labelFields];
    if (orderable.length > 0 && chance(g, 0.5))
      c['order'] = g(() =>
        fc.shuffledSubarray(orderable, { minLength: 1, maxLength: Math.min(2, orderable.length) }),
      ).map((f) => pick(g, ['', '+', '-']) + fieldName(f));

    // One parent column names the parent; one per ancestor names them all (only one when the parent's ids are unique in its whole list).
    const parentColumns = !parent
      ? []
      : grand && !(parent.globalIds && chance(g, 0.5))
        ? [`${grand.name}_id`, `${parent.name}_id`]
        : [`${parent.name}_id`];
    if (parent)
      c['parent'] = {
        list: parent.name,
        column: parentColumns.length === 1 && chance(g, 0.7) ? parentColumns[0] : parentColumns,
      };
    if (shape !== 'paged') c['shape'] = shape;
    if (kind !== 'embedded' && chance(g, 0.2)) c['path'] = pick(g, [name.toUpperCase(), `x-${name}`]);
    const items = kind !== 'embedded' && chance(g, shape === 'paged' ? 0.2 : 0.5);
    if (items) c['items'] = true;
    const search = shape !== 'grid' && (kind === 'embedded' || chance(g, 0.8));
    if (shape !== 'grid' && !search) c['search'] = false;
    const counts = kind === 'top' && shape === 'paged' && chance(g, 0.5);

    // Rows: a top list sometimes long enough for many pages, a list under a parent 0 to 3 per parent item, but a
    // crowded list many under some parents, with long shared starts: pages and large prefixes under a parent.
    const crowded = chance(g, 0.25);
    const shared = crowded ? 0.6 : 0.25;
    const globalIds = kind !== 'nested' || chance(g, 0.5);
    const planned: Planned = { name, items: [], globalIds, depth: parent ? parent.depth + 1 : 0 };
    const rows: Record<string, string>[] = [];
    const used: string[] = [];
    const padded = (id: Id): string => spaced(g, typeof id === 'number' && chance(g, 0.15) ? '00' + id : String(id));
    const under = parent ? parent.items : [{ id: 0, chain: [] }];
    // Under two parents, ids may repeat, or differ only by case: they are in two folders.
    const recased = (id: Id): Id =>
      typeof id === 'string' && ids.chars === 'A-Za-z0-9_-' && chance(g, 0.3) ? swapCase(id) : id;
    for (const p of under) {
      const taken = new Set<string>();
      const n = !parent
        ? chance(g, 0.3)
          ? int(g, 0, 40)
          : pick(g, [0, 1, 2, 3, 5, 8])
        : crowded && planned.items.length < 60 && chance(g, 0.4)
          ? int(g, 4, 24)
          : int(g, 0, 3);
      for (let i = 0; i < n; i++) {
        let id = !globalIds && ids.issued.length > 0 && chance(g, 0.4) ? recased(pick(g, ids.issued)) : freshId(g, ids);
        if (taken.has(String(id).toLowerCase())) id = freshId(g, ids);
        taken.add(String(id).toLowerCase());
        const chain = parent ? [...p.chain, p.id] : [];
        planned.items.push({ id, chain });
        const row: Record<string, string> = { [idColumn]: padded(id) };
        for (const column of labelColumns) row[column] = text(g, used, shared);
        for (const f of fields) row[f.column] = f.cell(g, used, shared);
        parentColumns.forEach((column, k) => (row[column] = padded(chain[chain.length - parentColumns.length + k]!)));
        rows.push(row);
      }
    }
    const source = this.source(
      `${name}.csv`,
      [idColumn, ...labelColumns, ...fields.map((f) => f.column), ...parentColumns],
      rows,
    );
    if (source.config !== undefined) c['source'] = source.config;
    // A list whose source (or counts' source) is absent must say it may be; one whose sources are there may say so too.
    if (source.absent || chance(g, 0.1)) c['optional'] = true;
    if (counts) this.counts(name, c, planned);
    if (kind === 'top' && shape === 'paged' && chance(g, 0.4)) {
      const child = this.list('embedded', planned);
      c['children'] = chance(g, 0.5) ? child.name : { list: child.name, key: pick(g, ['children', 'kids']) };
    }
    // A list without children may search string fields too, named by column or by key, and rank a search text of its
    // string fields in tiers 1 and 2; any list may rank exact matches first.
    const searchable = fields.filter((f) => f.key === 'city' || f.key === 'alt');
    if (search && kind !== 'embedded') {
      const s: Record<string, unknown> = {};
      const plain = !('children' in c);
      if (plain && searchable.length > 0 && chance(g, 0.6))
        s['columns'] = g(() => fc.subarray(searchable, { minLength: 1 })).map(fieldName);
      if (plain && fields.length + labelFields.length > 0 && chance(g, 0.4))
        s['text'] = this.searchText(template, labelFields, fields, fieldName);
      if (chance(g, s['columns'] ? 0.7 : 0.5)) s['exact'] = chance(g, 0.85);
      // Mostly the words rule (the default, now and then said), a list now and then of the phrase rule or without typos.
      const phrase = chance(g, 0.3);
      if (phrase) s['match'] = 'phrase';
      else if (chance(g, 0.15)) s['match'] = 'words';
      if (chance(g, 0.2)) s['typos'] = phrase ? false : chance(g, 0.2);
      if (Object.keys(s).length > 0) c['search'] = s;
      else if (chance(g, 0.1)) c['search'] = true;
    }
    if (kind !== 'embedded' && shape !== 'paged' && planned.depth < 2 && this.count < 8) {
      for (let k = int(g, 0, 2); k > 0; k--) this.list('nested', planned, parent);
    }
    const params = kind === 'embedded' ? undefined : this.params(shape, search, counts, 'children' in c);
    if (params) c['params'] = params;
    return planned;
  }

  /**
   * A search text: the label's own columns as fields (all of them, the label again, or the first alone), else one
   * or two other fields (a number now and then: the client writes it as its JSON), in braces or (one) a bare name.
   */
  searchText(template: string, labelFields: Named[], fields: Named[], name: (f: Named) => string): string {
    const g = this.g;
    if (labelFields.length > 0 && (fields.length === 0 || chance(g, 0.5))) {
      if (chance(g, 0.5))
        return template.replace(
          /\{([^{}]*)\}/g,
          (_, column: string) => `{${name(labelFields.find((f) => f.column === column)!)}}`,
        );
      return `{${name(labelFields[0]!)}}`;
    }
    const textual = [...fields.filter((f) => f.key === 'city' || f.key === 'alt' || chance(g, 0.3)), ...labelFields];
    if (textual.length === 0) return name(fields[0]!);
    const chosen = g(() => fc.shuffledSubarray(textual, { minLength: 1, maxLength: Math.min(2, textual.length) }));
    if (chosen.length === 1 && chance(g, 0.3)) return name(chosen[0]!);
    return chosen.map((f) => `{${name(f)}}`).join(pick(g, [' ', ' - ', ', ', '']));
  }

  /** Renames or turns off some of a list's parameters; names of different roles never collide. */
  params(
    shape: string,
    search: boolean,
    counts: boolean,
    children: boolean,
  ): Record<string, string | false> | undefined {
    const g = this.g;
    const roles: [string, boolean, string[]][] = [
      ['page', shape === 'paged', ['p', 'pg']],
      ['term', shape !== 'grid' && search, ['q', 'search']],
      ['id', shape === 'paged', ['key', 'ident']],
      ['group', shape === 'paged' && counts, ['grp']],
      ['child', children, ['sub']],
    ];
    const odds = (role: string) => (role === 'page' && this.paged > 0 ? 0.8 : 0.2);
    const renamed = roles
      .filter(([role, taken]) => taken && chance(g, odds(role)))
      .map(([role, , names]) => [role, chance(g, 0.3) ? false : pick(g, names)] as const);
    if (shape === 'paged') this.paged++;
    return renamed.length > 0 ? Object.fromEntries(renamed) : undefined;
  }

  /** Counts of `list`'s items per group, and the groups themselves the first time. */
  counts(name: string, c: Record<string, unknown>, planned: Planned): void {
    const g = this.g;
    if (!this.config['groups']) {
      this.groupIds = g(() => fc.subarray(['gbif', 'col-2', 'Herb_1', 'x', 'B9', 'obis']));
      const rows = this.groupIds.map((id) => ({ id: spaced(g, id), text: text(g, []) }));
      const source = this.source('groups.csv', ['id', 'text'], rows);
      this.config['groups'] = {
        source: source.config ?? 'groups.csv',
        param: pick(g, ['System', 'Collection', 'Set']),
        ...(source.absent ? { optional: true } : {}),
      };
    }
    const [group, id, count] = pick(g, [
      ['group', 'id', 'count'],
      ['grp', 'item', 'n'],
    ]);
    const rows = this.groupIds.flatMap((gid) =>
      planned.items
        .filter(() => chance(g, 0.4))
        .map((it) => ({
          [group]: spaced(g, gid),
          [id]: spaced(g, String(it.id)),
          [count]: spaced(g, String(int(g, 0, 500))),
        })),
    );
    const source = this.source(`${name}_count.csv`, [group, id, count], rows);
    c['counts'] =
      group === 'group' && source.config === undefined
        ? `${name}_count.csv`
        : { source: source.config ?? `${name}_count.csv`, group, id, count };
    if (source.absent) c['optional'] = true;
  }

  /** Writes a source (or, when it has no rows, sometimes leaves it absent) and says how the config names it and whether it is absent. */
  source(file: string, header: string[], rows: Record<string, string>[]): { config: unknown; absent: boolean } {
    const g = this.g;
    const delimiter = pick(g, [',', ',', ';', '\t']);
    const named = delimiter === ',' && chance(g, 0.8) ? file : `${chance(g, 0.3) ? 'data/' : ''}${file}`;
    const absent = rows.length === 0 && chance(g, 0.5);
    if (!absent) {
      const columns = chance(g, 0.3)
        ? g(() => fc.shuffledSubarray(header, { minLength: header.length, maxLength: header.length }))
        : header;
      const cased = pick(g, [(s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s.toLowerCase()]);
      const quoteAll = chance(g, 0.2);
      const quote = (s: string): string =>
        quoteAll || /["\r\n]/.test(s) || s.includes(delimiter) ? `"${s.replace(/"/g, '""')}"` : s;
      const eol = pick(g, ['\n', '\r\n']);
      const lines = [columns.map((h) => quote(cased(h))), ...rows.map((r) => columns.map((h) => quote(r[h]!)))].map(
        (cells) => cells.join(delimiter),
      );
      this.files[named] = (chance(g, 0.2) ? '\uFEFF' : '') + lines.join(eol) + (chance(g, 0.8) ? eol : '');
    }
    return {
      config: named === file && delimiter === ',' ? undefined : delimiter === ',' ? named : { file: named, delimiter },
      absent,
    };
  }
}

/**
 * A random declaration within docs/lists.md, its sources, a page size and
 * how large a word's wide pool may be, and past what size records spill.
 * Shrinking is capped: a gen() value of a few thousand draws shrinks for ever,
 * holding every attempt in memory.
 */
export function arbDeclared(): fc.Arbitrary<Declared> {
  return fc.limitShrink(fc.gen(), 200).map((g) => {
    const b = new Builder(g);
    for (let n = int(g, 1, 4); n > 0; n--) b.list('top');
    return {
      config: { ...b.config, lists: b.lists },
      files: b.files,
      pageSize: pick(g, [1, 2, 3, 5, 30]),
      wideBytes: pick(g, [0, 1_600, 100_000]),
      spill: pick(g, [0, 200, Infinity]),
    };
  });
}

// ---------------------------------------------------------------- requests

/** A declared list at one place in the tree: `/country/840/state` and the states of country 840. */
export interface Route {
  list: ListSpec;
  /** The path without `.json`. */
  prefix: string;
  /** The ancestors' lists and items, outermost first. */
  ancestors: ListSpec[];
  chain: DeclaredItem[];
  items: DeclaredItem[];
}

/** Every list of a declaration at every place its parents' items put it, embedded lists aside. */
export function declaredRoutes(d: Declaration, files: Record<string, string>): Route[] {
  const all = declaredItems(d, files);
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  const routesOf = (list: ListSpec): Route[] => {
    if (!list.parent) return [{ list, prefix: `/${list.path}`, ancestors: [], chain: [], items: all.get(list.name)! }];
    return routesOf(byName.get(list.parent.list)!).flatMap((r) =>
      r.items.map((p) => {
        const chain = [...r.chain, p];
        return {
          list,
          prefix: `${r.prefix}/${p.id}/${list.path}`,
          ancestors: [...r.ancestors, r.list],
          chain,
          items: itemsUnder(list, chain, all.get(list.name)!),
        };
      }),
    );
  };
  return d.lists.filter((l) => !l.embeddedIn).flatMap(routesOf);
}

const BAD_IDS = ['x.y', '-1', '1.5', 'é', '%41', '', 'a'.repeat(65), '1e3', ' 1'];
const swapCase = (s: string): string =>
  Array.from(s, (ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');

/** A path segment or Id value for an id of `list` among `ids`: mostly one of them (integers sometimes zero-padded), else unknown or malformed. */
function idValue(g: G, list: ListSpec, ids: readonly Id[]): string {
  const r = int(g, 0, 19);
  if (r < 13 && ids.length > 0) {
    const id = pick(g, ids);
    return typeof id === 'number' && r >= 10 ? '0'.repeat(r - 9) + id : String(id);
  }
  if (r >= 17) return pick(g, BAD_IDS);
  if (list.id.type === 'integer')
    return pick(g, ['0', '00000', String(Math.max(0, ...ids.map(Number)) + 1), '9007199254740993']);
  return ids.length > 0 && chance(g, 0.5) ? swapCase(String(pick(g, ids))) : pick(g, ['zz', 'Q', 'A-1', '0']);
}

/** A place of a list that takes a Term, with items to rank, and declares how it ranks them: an order, a search text, exact matches first. */
const ranksItsOwnWay = ({ list, items }: Route): boolean =>
  list.params.term !== undefined &&
  items.length > 1 &&
  (list.order !== undefined || (list.search && (list.search.text !== undefined || list.search.exact === true)));

/**
 * Term requests that meet what lists declare of their ranking, each page of
 * each answer (up to `pages`): at up to `places` places of lists that take a
 * Term (those that rank their own way first), for a few of their items, the
 * item's whole search text, label and searched values (exact matches, where
 * the list ranks them first) and its text's first letters. Random requests
 * meet these seldom: an exact match ranks apart only where another item's text
 * starts with it, or the declared order puts it after such an item.
 */
export function searchSweep(declared: Declared, { places = 5, perPlace = 4, pages = 3 } = {}): string[] {
  const d = checkConfig(declared.config, 'reflist.config.json').declaration!;
  const routes = declaredRoutes(d, declared.files).filter(
    (r) => r.list.params.term !== undefined && r.items.length > 1,
  );
  const chosen = [...routes.filter(ranksItsOwnWay), ...routes.filter((r) => !ranksItsOwnWay(r))].slice(0, places);
  return chosen.flatMap(({ list, prefix, items }) => {
    const searched = list.search ? list.search.fields.map((i) => list.fields[i]!.key) : [];
    const step = Math.ceil(items.length / perPlace);
    const terms = new Set(
      items
        .filter((_, i) => i % step === 0)
        .flatMap((x) => [
          x.text,
          x.label,
          ...searched.map((k) => String(x.own[k])),
          Array.from(x.text).slice(0, 3).join(''),
          // The words rule: the text's words the other way round, the last cut short, and its longest word with a typo.
          wordsIn(x.text)
            .reverse()
            .map((w, i) => (i === 0 ? Array.from(w).slice(0, 4).join('') : w))
            .join(' '),
          swapped(wordsIn(x.text).reduce((a, b) => (Array.from(b).length > Array.from(a).length ? b : a), '')),
        ]),
    );
    const last = list.params.page ? Math.min(pages, Math.ceil(items.length / declared.pageSize)) : 1;
    return [...terms]
      .filter((t) => t.trim() !== '')
      .flatMap((t) =>
        Array.from(
          { length: last },
          (_, k) =>
            `${prefix}.json?${list.params.term}=${encodeURIComponent(t)}${k > 0 ? `&${list.params.page}=${k + 1}` : ''}`,
        ),
      );
  });
}

/** A text's words as written (letters, digits and their marks): Unicode, case and accents kept for the client to fold. */
const wordsIn = (text: string): string[] => text.split(/[^\p{L}\p{N}\p{M}]+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));

/**
 * `word` with one typo (docs/lists.md, Typos): a letter inserted, deleted or
 * substituted, or two adjacent letters swapped, mostly after the first letter
 * (which is never a typo: a Term so changed finds nothing by it).
 */
function withTypo(g: G, word: string): string {
  const cps = Array.from(word);
  if (cps.length < 2) return word + pick(g, ['e', 'x']);
  const i = chance(g, 0.1) ? 0 : int(g, 1, cps.length - 1);
  const letter = pick(g, [...cps, 'e', 'x', 'ß', 'é']);
  switch (pick(g, ['insert', 'delete', 'substitute', 'swap'] as const)) {
    case 'insert':
      cps.splice(i + int(g, 0, 1), 0, letter);
      break;
    case 'delete':
      cps.splice(i, 1);
      break;
    case 'substitute':
      cps[i] = cps[i] === letter ? 'q' : letter;
      break;
    case 'swap':
      if (i + 1 < cps.length) [cps[i], cps[i + 1]] = [cps[i + 1]!, cps[i]!];
      else [cps[i - 1], cps[i]] = [cps[i]!, cps[i - 1]!];
  }
  return cps.join('');
}

/**
 * A Term of the words rule (docs/lists.md, The words rule) drawn from the
 * texts' own words: several words of one text shuffled, some cut to a prefix,
 * some given a typo (two, now and then, to a long word), or words of two
 * texts together (often no item holds both: the typo answer, or none).
 */
function wordsTerm(g: G, texts: readonly string[]): string {
  const own = wordsIn(pick(g, texts));
  if (own.length === 0) return pick(g, texts);
  const words = chance(g, 0.3) ? [pick(g, own), pick(g, wordsIn(pick(g, texts)).concat(own))] : own;
  const chosen = g(() => fc.shuffledSubarray(words, { minLength: 1, maxLength: Math.min(3, words.length) }));
  const typed = chosen.map((w) => {
    const cps = Array.from(w);
    const cut = chance(g, 0.4) ? cps.slice(0, int(g, 1, cps.length)).join('') : w;
    if (!chance(g, 0.35)) return cut;
    const once = withTypo(g, cut);
    return Array.from(cut).length >= 9 && chance(g, 0.3) ? withTypo(g, once) : once;
  });
  return pick(g, [typed.join(' '), typed.join(' '), typed.join(', ').toUpperCase(), typed.join('-')]);
}

/** `word` with its second and third letters swapped: one typo, for a word of 5 letters or more. */
function swapped(word: string): string {
  const cps = Array.from(word);
  if (cps.length >= 3) [cps[1], cps[2]] = [cps[2]!, cps[1]!];
  return cps.join('');
}

/** A Term cut from a label at a word start, sometimes disguised, or a whole label (`whole` of the time: an exact match), words of the labels in any order (words rule), or one that matches nothing. */
function termValue(g: G, labels: readonly string[], whole = 0.2): string {
  if (labels.length > 0 && chance(g, 0.35)) return wordsTerm(g, labels);
  if (labels.length === 0 || chance(g, 0.2))
    // Some a typo away from a word of WORDS (Smith, Muller, Strasse, Naturkunde): the typo answer over any list.
    return pick(g, [
      'zzqx',
      ' ',
      '!!',
      'ss',
      'ß',
      'smi',
      '山',
      'e\u0301',
      'x'.repeat(70),
      'smitth',
      'mueller',
      'strase',
      'naturknude',
    ]);
  if (chance(g, whole)) {
    const label = pick(g, labels);
    return pick(g, [label, label.toUpperCase(), `${label}!`]);
  }
  const cps = Array.from(pick(g, labels));
  const starts = cps.flatMap((ch, i) =>
    /[\p{L}\p{N}]/u.test(ch) && (i === 0 || !/[\p{L}\p{N}\p{M}]/u.test(cps[i - 1]!)) ? [i] : [],
  );
  const start = starts.length > 0 ? pick(g, starts) : 0;
  const cut = cps.slice(start, start + int(g, 1, cps.length - start)).join('');
  return pick(g, [
    cut,
    cut,
    cut.toUpperCase(),
    cut.toLowerCase(),
    cut.normalize('NFKD').replace(/\p{M}/gu, ''),
    `(${cut}`,
    `${cut} zzz`,
  ]);
}

const DEFAULT_NAMES = { page: 'Page', term: 'Term', id: 'Id', child: 'child', group: 'System' } as const;

/** Random request URLs (path and query) over the paths `declared` declares. */
export function arbDeclaredRequest(declared: Declared): fc.Arbitrary<string> {
  const { declaration: d, errors } = checkConfig(declared.config, 'reflist.config.json');
  if (!d) throw new Error(`arbDeclared made an invalid config: ${errors.map((e) => e.message).join('; ')}`);
  const routes = declaredRoutes(d, declared.files);
  // The places of lists that declare how they rank (search text, exact first, an order), with items to rank:
  // asked more often, so that a Term meets what they declare.
  const ranked = routes.filter(ranksItsOwnWay);
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  const all = declaredItems(d, declared.files);
  const gr = d.groups;
  const groupIds = gr
    ? readRows(declared.files, gr.source.file, gr.source.delimiter).map((cell) => cell(gr.id).trim())
    : [];
  const plain = (g: G): string => {
    const route = ranked.length > 0 && chance(g, 0.3) ? pick(g, ranked) : pick(g, routes);
    const { list } = route;
    if (chance(g, 0.05))
      return pick(g, [
        '/',
        '/nope.json',
        `${route.prefix}.JSON`,
        `${route.prefix.toUpperCase()}.json`,
        route.prefix,
        `${route.prefix}.json/`,
        `/${route.prefix}.json`,
        `${route.prefix}/page/1.json`,
        `${route.prefix}/page/2.json`,
        `${route.prefix}/x/y.json`,
      ]);
    // The ancestors' ids, now and then zero-padded, unknown or malformed.
    const base =
      route.chain
        .map((p, k) => {
          const id = chance(g, 0.07)
            ? idValue(
                g,
                route.ancestors[k]!,
                all.get(route.ancestors[k]!.name)!.map((x) => x.id),
              )
            : typeof p.id === 'number' && chance(g, 0.1)
              ? `0${p.id}`
              : String(p.id);
          return `/${route.ancestors[k]!.path}/${id}`;
        })
        .join('') + `/${list.path}`;
    if (list.items && chance(g, 0.35))
      return `${base}/${idValue(
        g,
        list,
        route.items.map((x) => x.id),
      )}.json`;

    const child = list.children && byName.get(list.children.list);
    const childItems = child ? all.get(child.name)! : [];
    const searched = (list.search ? list.search.fields : []).map((i) => list.fields[i]!.key);
    // Terms are cut from the labels (children's too), the searched columns' values or the search texts, as often from each.
    const labels = [...route.items, ...childItems].map((x) => x.label);
    const columns = route.items.flatMap((x) => searched.map((k) => String(x.own[k]))).filter((t) => t !== '');
    const texts = route.items.map((x) => x.text).filter((t) => t !== '');
    const pools = [labels, columns, texts].filter((pool) => pool.length > 0);
    const last = Math.max(1, Math.ceil(route.items.length / declared.pageSize));
    const values: Record<keyof typeof DEFAULT_NAMES, () => string> = {
      page: () =>
        pick(g, ['1', '2', String(last), String(last + 1), '01', '0', 'x', '-1', '1.5', '99999999999999999999', '']),
      // A list that ranks exact matches first is asked whole texts and values more often.
      term: () => termValue(g, pools.length > 0 ? pick(g, pools) : [], list.search && list.search.exact ? 0.5 : 0.2),
      // An id among the route's items, or a child's, or one of the list's under another parent (none here).
      id: () =>
        idValue(
          g,
          list,
          [...route.items, ...(chance(g, 0.3) ? childItems : []), ...(chance(g, 0.2) ? all.get(list.name)! : [])].map(
            (x) => x.id,
          ),
        ),
      child: () => pick(g, ['true', 'false', '1', '0', 'TRUE', 'False', 'maybe', '2', '']),
      group: () =>
        groupIds.length > 0 && chance(g, 0.7)
          ? chance(g, 0.85)
            ? pick(g, groupIds)
            : swapCase(pick(g, groupIds))
          : pick(g, ['nosuch', '']),
    };
    // As a drop-down asks: a Term alone, or with a later page of its answer, its parameters spelt as declared.
    if (list.params.term && chance(g, 0.3)) {
      const page = list.params.page && chance(g, 0.5) ? `&${list.params.page}=${pick(g, ['2', '3'])}` : '';
      return `${base}.json?${list.params.term}=${encodeURIComponent(values.term())}${page}`;
    }
    const params: [string, string][] = [];
    for (const role of Object.keys(values) as (keyof typeof DEFAULT_NAMES)[]) {
      if (!chance(g, role === 'id' ? 0.25 : 0.4)) continue;
      const declaredName = list.params[role] ?? (role === 'group' ? gr?.param : undefined);
      // A role's declared name in any case, or its usual name or another list's name for it, which a list that renamed it ignores.
      const name =
        declaredName && chance(g, 0.7)
          ? declaredName
          : pick(g, [DEFAULT_NAMES[role], ...d.lists.flatMap((l) => l.params[role] ?? [])]);
      params.push([pick(g, [name, name.toLowerCase(), name.toUpperCase()]), values[role]()]);
    }
    if (chance(g, 0.2)) params.push([pick(g, ['q', '_type', 'foo']), pick(g, ['smi', 'query', ''])]);
    // A name twice, with another value, before or after the first once shuffled: the first occurrence wins.
    if (params.length > 0 && chance(g, 0.2)) params.push([pick(g, params)[0], pick(g, ['', 'x', '2', 'zz'])]);
    const ordered = g(() => fc.shuffledSubarray(params, { minLength: params.length, maxLength: params.length }));
    const plus = chance(g, 0.5);
    const enc = (s: string): string => (plus ? encodeURIComponent(s).replace(/%20/g, '+') : encodeURIComponent(s));
    return ordered.length === 0
      ? `${base}.json`
      : `${base}.json?${ordered.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
  };
  return fc.limitShrink(fc.gen(), 200).map((g) => (chance(g, 0.2) ? escaped(g, plain(g)) : plain(g)));
}

/**
 * `url` as some clients send it (docs/lists.md, Paths): a `/` as %2F (which
 * names nothing), the `.` of `.json` as %2E (no list's path then, but a
 * file's name), a letter or digit percent-encoded (`%55S` is `US`), or the
 * query's escaped UTF-8 as its raw bytes (curl sends a `ß` as it is). Only
 * after the path's first segment: hosts that route by path (Cloudflare
 * Pages, Netlify) match that segment as sent.
 */
function escaped(g: G, url: string): string {
  const [, path = '', query = ''] = /^([^?]*)(.*)$/s.exec(url)!;
  const rest = path.indexOf('/', 1);
  const at = (re: RegExp): number[] => [...path.matchAll(re)].map((m) => m.index).filter((i) => rest >= 0 && i >= rest);
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
  const kind = pick(g, ['slash', 'dot', 'letter', 'raw'] as const);
  const slashes = at(/\//g);
  if (kind === 'slash' && slashes.length > 0) {
    const i = pick(g, slashes);
    return `${path.slice(0, i)}${pick(g, ['%2F', '%2f'])}${path.slice(i + 1)}${query}`;
  }
  const letters = at(/[A-Za-z0-9]/g);
  if (kind === 'letter' && letters.length > 0) {
    const i = pick(g, letters);
    return `${path.slice(0, i)}${hex(path[i]!)}${path.slice(i + 1)}${query}`;
  }
  if (kind === 'dot' && path.endsWith('.json'))
    return `${path.slice(0, -'.json'.length)}${pick(g, ['%2E', '%2e'])}json${query}`;
  // Sequences of a lead byte and its continuation bytes: a character's UTF-8.
  return path + query.replace(/%[C-F][0-9A-F](%[89AB][0-9A-F])+/gi, (bytes) => decodeURIComponent(bytes));
}
