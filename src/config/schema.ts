// reflist.config.json's contract, written once, in TypeBox: the raw config's
// types (Static), its structural checks (types, enums, unknown keys, ranges,
// patterns: check.ts runs TypeBox's Value.Errors over it), its defaults and
// ranges (the readers and the command line take them from here), and the
// JSON Schema editors read (scripts/schema.ts writes it to
// schema/reflist.config.schema.json). What a schema cannot say, the rules
// between keys and between lists, is code: the readers (declaration.ts,
// fields.ts, ranking.ts, params.ts) and relations.ts. Adding a key is one
// entry here, and the code that gives it its meaning.
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { HOST_NAMES } from './hosts.js';

/**
 * What a node expects, in the words of an error message (`expected …, got
 * …`), where its kind alone says it poorly: a name's rule, a union's forms.
 * A symbol, as TypeBox's own Kind is, so that it stays out of the JSON Schema.
 */
export const EXPECTED = Symbol('reflist.expected');
/** The `$defs` entry a node is written as in the JSON Schema file (scripts/schema.ts). */
export const DEF = Symbol('reflist.def');

/** A name that may be a path segment on every host: of a list, a key, a parameter. */
export const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const NAME_RULE = 'a letter, then up to 63 of A-Z a-z 0-9 _ -';
/**
 * A source is a .csv file in the config's folder or below it, never a path
 * out of it: no backslash, no empty, `.` or `..` segment.
 */
const FILE = '^(?!/)(?!.*//)(?!(?:.*/)?\\.\\.?(?:/|$))[^\\\\]*\\.csv$';

/** Items per page of a paged list: the config's pageSize and `--page-size` take the same. */
export const PAGE_SIZE = { minimum: 1, maximum: 10000, default: 30 } as const;
/**
 * What the keys that have one stand for when not given: the JSON Schema
 * writes each as its key's default, and the readers fill it in.
 */
export const DEFAULTS = {
  delimiter: ',',
  groups: { source: 'group.csv', id: 'id', label: 'text' },
  /** A string id's characters: RFC 3986's unreserved ones but `.` and `~`, so no id is `..` or a hidden file. */
  id: { column: 'id', type: 'integer', key: 'id', chars: 'A-Za-z0-9_-' },
  label: { column: 'text', key: 'text' },
  children: { key: 'children' },
  shape: 'paged',
  counts: { group: 'group', id: 'id', count: 'count' },
} as const;
export const DEFAULT_ID_CHARS = DEFAULTS.id.chars;

/** A name, `what` saying whose (`a list name`): the rule comes after it in a message. */
const name = (what: string, options: object = {}) =>
  Type.String({ pattern: NAME.source, [EXPECTED]: `${what}: ${NAME_RULE}`, [DEF]: 'name', ...options });
const column = (options: object = {}) =>
  Type.String({ pattern: '\\S', [EXPECTED]: 'a column name', [DEF]: 'column', ...options });
const file = Type.String({
  pattern: FILE,
  [EXPECTED]: "a .csv file in the config's folder or below it",
  [DEF]: 'file',
});
const flag = (description: string) => Type.Boolean({ description, default: false });
/** One of these strings. */
const oneOf = <const T extends string>(values: readonly T[], options: object = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
/** An object of these keys and no other. */
const closed = <T extends TProperties>(keys: T, options: object = {}) =>
  Type.Object(keys, { additionalProperties: false, ...options });
/** An object of these keys, each optional, and no other. */
const optional = <T extends TProperties>(keys: T, options: object = {}) => Type.Partial(closed(keys, options));
/** An object whose keys are names (`what` says whose), each a `value`: a key of another form is refused. */
const named = <T extends TSchema>(what: string, value: T, options: object) =>
  Type.Record(Type.String({ pattern: NAME.source }), value, {
    // Never rather than false: TypeBox reports each such key, not the first alone; written `false` in the file.
    additionalProperties: Type.Never({ [EXPECTED]: `${what}: ${NAME_RULE}` }),
    ...options,
  });
/** A shared node (a DEF) where it says more of itself: its description, its default. */
const withDescription = <T extends TSchema>(schema: T, description: string, more: object = {}): T => ({
  ...schema,
  description,
  ...more,
});

const delimiter = oneOf([',', ';', '\t'], {
  description: 'The field delimiter (default ","): a semicolon for a CSV from a European Excel.',
  default: DEFAULTS.delimiter,
});
const source = Type.Union([file, closed({ file, delimiter: Type.Optional(delimiter) })], {
  description: 'A CSV file relative to the config, or {file, delimiter}.',
  [EXPECTED]: 'a file name or {"file", "delimiter"}',
  [DEF]: 'source',
});

const groups = closed(
  {
    source: Type.Optional(
      withDescription(source, "The groups' CSV (default group.csv).", { default: DEFAULTS.groups.source }),
    ),
    param: name('the query parameter that picks a group, e.g. "System"', {
      description: 'The query parameter that picks a group, e.g. System.',
    }),
    id: Type.Optional(
      column({
        description: "The column of a group's id (default id): 1 to 64 of A-Z a-z 0-9 _ -.",
        default: DEFAULTS.groups.id,
      }),
    ),
    label: Type.Optional(
      column({ description: "The column of a group's label (default text).", default: DEFAULTS.groups.label }),
    ),
    optional: Type.Optional(
      flag(
        "The groups' source may be absent: there are then no groups (default false: an absent source fails the build).",
      ),
    ),
  },
  {
    description:
      "The groups items are counted in (the service's systems): a source of ids and labels, and the query parameter that picks one.",
  },
);

const id = Type.Union(
  [
    column(),
    optional({
      column: column({ default: DEFAULTS.id.column }),
      type: oneOf(['integer', 'string'], {
        description: 'integer: non-negative integers; string: 1 to 64 characters of chars.',
        default: DEFAULTS.id.type,
      }),
      key: name('a key', { description: "The id's key in an item (default id).", default: DEFAULTS.id.key }),
      chars: Type.String({
        description: `String ids: the characters they may hold, as ranges and characters (default ${DEFAULTS.id.chars}); each must be one of A-Z a-z 0-9 _ -.`,
        minLength: 1,
        default: DEFAULTS.id.chars,
        [EXPECTED]: 'characters like "A-Z0-9-"',
      }),
    }),
  ],
  {
    description: 'The id column (default id, integers), or {column, type, key, chars}.',
    default: DEFAULTS.id.column,
    [EXPECTED]: 'a column name or {"column", "type", "key", "chars"}',
  },
);

const template = 'a template like "{family}, {given}"';
const label = Type.Union(
  [
    Type.String({ pattern: '\\S', [EXPECTED]: `a column, or ${template}` }),
    optional(
      {
        column: column(),
        template: Type.String({ pattern: '\\{[^{}]+\\}', [EXPECTED]: template }),
        key: name('a key', { description: "The label's key in an item (default text).", default: DEFAULTS.label.key }),
      },
      // One of the two, never both: readLabel says so in words (Value.Errors reads no oneOf of an object).
      { oneOf: [{ required: ['column'] }, { required: ['template'] }] },
    ),
  ],
  {
    description:
      'The label column (default text), a template over columns like "{family}, {given}", or {column|template, key}.',
    default: DEFAULTS.label.column,
    [EXPECTED]: `a column, ${template}, or {"column"|"template", "key"}`,
  },
);

const fieldType = oneOf(['integer', 'number', 'string'], {
  [EXPECTED]: 'integer, number or string',
  [DEF]: 'fieldType',
});
const field = Type.Union(
  [
    fieldType,
    closed({
      column: Type.Optional(column()),
      type: fieldType,
      min: Type.Optional(Type.Number()),
      max: Type.Optional(Type.Number()),
      optional: Type.Optional(
        flag('A cell may be empty: the item holds null there, and an order puts such items last.'),
      ),
    }),
  ],
  { [EXPECTED]: 'a type (integer, number, string) or {"column", "type", "min", "max", "optional"}' },
);

const search = Type.Union(
  [
    Type.Boolean(),
    optional({
      text: Type.String({
        description:
          'What Term matches in tiers 1 and 2 instead of the label: a field, or a template over fields like "{name} {ascii}" (each a declared field, by key or column). The label stays what is shown.',
        pattern: '\\S',
        [EXPECTED]: 'a field, or a template over fields like "{name} {ascii}"',
      }),
      columns: Type.Array(column(), {
        description: 'String fields, by column or key, that Term also searches, in tier 3.',
        [EXPECTED]: 'a list of column names',
      }),
      exact: flag(
        "An item whose text, searched column or child's label is the Term itself comes first, in tier 0 (default false).",
      ),
      match: oneOf(['words', 'phrase'], {
        description:
          "words (the default): an item matches when every word of the Term starts one of its words, in any order, the phrase ranked first; phrase: the Term as one phrase at a word start (the lookup service's rule).",
        default: 'words',
        [EXPECTED]: '"words" (every word of the Term, in any order) or "phrase"',
      }),
      typos: Type.Boolean({
        description:
          'With the words rule, when no item matches as typed, answer the items that match with the fewest typos (default true): 1 from 5 letters, 2 from 9, never the first letter.',
        default: true,
      }),
    }),
  ],
  {
    description:
      'Term search: over the label (true, the default for lists), off (false), or an object: the text it matches instead of the label, string fields it also searches, which rank after every text match, exact matches first, and the rule ({"text": "{name}", "columns": ["code"], "exact": true, "match": "words", "typos": true}).',
    [EXPECTED]: 'true, false or {"text", "columns", "exact", "match", "typos"}',
  },
);

const param = Type.Union([name('a parameter name'), Type.Literal(false)], {
  [EXPECTED]: 'a parameter name (a letter, then A-Z a-z 0-9 _ -) or false',
  [DEF]: 'param',
});

const list = optional(
  {
    path: name('a path segment', {
      description: "The list's last path segment (default its name): two lists may share one under different parents.",
    }),
    source: withDescription(source, "The list's CSV (default {name}.csv)."),
    optional: flag(
      "The list's sources (its own and its counts') may be absent: each is then built as an empty list, and the build says so (default false: an absent source fails the build).",
    ),
    id,
    label,
    fields: named('a key', field, {
      description: 'Further values carried on every item, by their key: a type, or {column, type, min, max}.',
      [EXPECTED]: 'an object of key: type or key: {"column", "type", "min", "max", "optional"}',
    }),
    keys: Type.Array(Type.String({ [EXPECTED]: 'a key' }), {
      description: "The order of an item's keys: the id's, the label's and the fields' (default in that order).",
      uniqueItems: true,
      [EXPECTED]: "the item's keys (the id's, the label's and the fields'), each once, in the order they are written",
    }),
    parent: closed(
      {
        list: name('a list name'),
        column: Type.Union(
          [column(), Type.Array(column(), { minItems: 1, [EXPECTED]: 'one column per ancestor, outermost first' })],
          {
            description: "The column holding the parent's id, or one column per ancestor, outermost first.",
            [EXPECTED]: "the column holding the parent's id, or one column per ancestor, outermost first",
          },
        ),
      },
      { description: 'The list this one lives under: its items are at /{parent}/{id}/{name}.json.' },
    ),
    children: Type.Union(
      [
        name('a list name'),
        closed({ list: name('a list name'), key: Type.Optional(name('a key', { default: DEFAULTS.children.key })) }),
      ],
      {
        description:
          "A list whose parent is this one, embedded in this list's items; both are selectable, and the child parameter says which one an Id means.",
        [EXPECTED]: 'a list name or {"list", "key"}',
      },
    ),
    shape: oneOf(['paged', 'whole', 'grid'], {
      description:
        "paged: the select2 envelope a page at a time (default); whole: every item in one envelope; grid: jqGrid's reader.",
      default: DEFAULTS.shape,
    }),
    items: flag('Also write each item at /…/{name}/{id}.json.'),
    search,
    order: Type.Array(
      Type.String({ pattern: '^[+-]?[^+-]', [EXPECTED]: 'a field name, after "-" to sort descending, "+" or nothing' }),
      {
        description:
          "The list's order: fields (by key or column), each prefixed by - to sort descending or + (the default) ascending; ties by the default order, fold(label), then the label, then the id.",
        uniqueItems: true,
        [EXPECTED]: 'a list of field names, each with "-" before it to sort descending, e.g. ["-population", "name"]',
      },
    ),
    counts: Type.Union(
      [
        file,
        optional({
          source,
          group: column({ default: DEFAULTS.counts.group }),
          id: column({ default: DEFAULTS.counts.id }),
          count: column({ default: DEFAULTS.counts.count }),
        }),
      ],
      {
        description: 'How many items each group refers to: a CSV of group, id, count (needs groups at the top).',
        [EXPECTED]: 'a file name or {"source", "group", "id", "count"}',
      },
    ),
    params: optional(
      { page: param, term: param, id: param, group: param, child: param },
      {
        description:
          'The query parameters the list takes, by role, and their names (matched case-insensitively); a role left out or false is not taken.',
        [EXPECTED]: 'an object of role: name, e.g. {"term": "Term", "page": "Page"}',
      },
    ),
  },
  { [EXPECTED]: 'an object, e.g. {"source": "institution.csv", "label": "name"}', [DEF]: 'list' },
);

/** reflist.config.json. */
export const CONFIG = closed(
  {
    $schema: Type.Optional(Type.String()),
    pageSize: Type.Optional(
      Type.Integer({
        description: `Items per page of every paged list (${PAGE_SIZE.default} when not given; --page-size overrides it).`,
        ...PAGE_SIZE,
      }),
    ),
    host: Type.Optional(
      oneOf(HOST_NAMES, {
        description:
          'The static host the tree is for: a build whose tree is over its caps (files, one file, one folder, the site) fails and leaves the served tree as it was (--host overrides it; docs/hosts.md).',
        [EXPECTED]: `one of ${HOST_NAMES.join(', ')}`,
      }),
    ),
    groups: Type.Optional(groups),
    lists: named('a list name', list, {
      description: 'Every list, by its name: its path is /{name}.json, or under its parent /{parent}/{id}/{name}.json.',
      minProperties: 1,
      [EXPECTED]: 'an object naming at least one list, e.g. {"institution": {"source": "institution.csv"}}',
    }),
  },
  {
    title: 'reflist.config.json',
    description:
      'The lists reflist builds into a static lookup API, and how each is read from its CSV source (docs/lists.md).',
    [EXPECTED]: 'an object with "lists"',
  },
);

/** The nodes the JSON Schema file writes once, under `$defs`, and refers to elsewhere: by their DEF. */
export const DEFS: Record<string, TSchema> = {
  name: name(''),
  column: column(),
  file,
  source,
  list,
  fieldType,
  param,
};

export type RawConfig = Static<typeof CONFIG>;
export type RawGroups = Static<typeof groups>;
export type RawList = Static<typeof list>;
export type RawSource = Static<typeof source>;
export type RawId = Static<typeof id>;
export type RawLabel = Static<typeof label>;
export type RawField = Static<typeof field>;
export type RawSearch = Static<typeof search>;
export type RawParams = NonNullable<RawList['params']>;
export type Delimiter = Static<typeof delimiter>;
export type Shape = NonNullable<RawList['shape']>;
export type FieldType = Static<typeof fieldType>;
export type IdType = NonNullable<Exclude<RawId, string>['type']>;
