import { describe, expect, test } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { run } from '../../src/cli.js';
import { checkConfig, type ListSpec } from '../../src/config/declaration.js';
import { Errors } from '../../src/config/json.js';
import { checkRelations } from '../../src/config/relations.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';
import { schemaText } from '../../scripts/schema.js';
import { VALID } from '../fixtures/valid.js';
import { snapshotTree, tempDir, writeSources } from '../helpers.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const schema = JSON.parse(
  readFileSync(new URL('../../schema/reflist.config.schema.json', import.meta.url), 'utf8'),
) as object;
const validates = new Ajv2020({ allErrors: true }).compile(schema);

test('the shipped JSON Schema is the one configs are checked by, written out by npm run schema', () => {
  expect(readFileSync(new URL('../../schema/reflist.config.schema.json', import.meta.url), 'utf8')).toBe(schemaText());
});

/** The two lists a new user brought: institutions by country, and a three-level taxonomy with counts per collection. */
const OWN_LISTS = {
  groups: { source: 'collection.csv', param: 'Collection' },
  lists: {
    country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true },
    institution: {
      source: { file: 'institutions.csv', delimiter: ';' },
      id: { column: 'id', type: 'string', chars: 'A-Z0-9-' },
      label: '{name} ({city})',
      fields: { city: 'string', founded: { type: 'integer', min: 1000 } },
    },
    countryInstitution: {
      source: 'institutions.csv',
      parent: { list: 'country', column: 'country_code' },
      shape: 'whole',
    },
    family: { shape: 'whole', items: true },
    genus: { parent: { list: 'family', column: 'family_id' }, shape: 'whole', items: true },
    speciesOfGenus: {
      source: 'species.csv',
      path: 'species',
      parent: { list: 'genus', column: 'genus_id' },
      shape: 'whole',
    },
    species: { counts: 'species_count.csv', params: { term: 'q', page: 'p', id: false } },
  },
};

describe('a config declares the lists', () => {
  test('the lookup-service preset is a declaration the schema accepts, and the shipped sources carry it', () => {
    expect(checkConfig(LOOKUP_SERVICE_CONFIG, 'x').errors).toEqual([]);
    expect(validates(LOOKUP_SERVICE_CONFIG)).toBe(true);
    const shipped = JSON.parse(
      readFileSync(new URL('../../sources/reflist.config.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    expect({ ...shipped, $schema: LOOKUP_SERVICE_CONFIG.$schema }).toEqual(LOOKUP_SERVICE_CONFIG);
  });

  test('defaults are filled in: sources, id, label, shape, search and the parameters by their usual names', () => {
    const { declaration } = checkConfig(OWN_LISTS, 'reflist.config.json');
    const byName = new Map(declaration!.lists.map((l) => [l.name, l]));
    expect(byName.get('family')).toEqual({
      name: 'family',
      path: 'family',
      source: { file: 'family.csv', delimiter: ',', detect: true },
      id: { column: 'id', type: 'integer', key: 'id', chars: 'A-Za-z0-9_-' },
      label: { template: '{text}', columns: ['text'], key: 'text' },
      fields: [],
      keys: ['id', 'text'],
      shape: 'whole',
      items: true,
      search: { fields: [] },
      params: { term: 'Term' },
      optional: false,
    });
    expect(byName.get('speciesOfGenus')).toMatchObject({ path: 'species', source: { file: 'species.csv' } });
    expect(byName.get('institution')!.label).toEqual({
      template: '{name} ({city})',
      columns: ['name', 'city'],
      key: 'text',
    });
    expect(byName.get('institution')!.source.delimiter).toBe(';');
    expect(byName.get('genus')!.params).toEqual({ term: 'Term' });
    expect(byName.get('species')!.params).toEqual({ page: 'p', term: 'q', group: 'Collection' });
    expect(validates(OWN_LISTS)).toBe(true);
  });

  const withList = (name: string, list: object, more: object = {}) => ({
    ...OWN_LISTS,
    lists: { ...OWN_LISTS.lists, [name]: list, ...more },
  });

  test('order, search text and exact are read into field indexes, and a paged list under a parent takes Page, Term and Id', () => {
    const config = withList('city', {
      parent: { list: 'country', column: 'country' },
      label: '{name} ({country})',
      fields: {
        name: 'string',
        population: 'integer',
        ascii: { column: 'asciiname', type: 'string' },
        country: 'string',
      },
      order: ['-population', '+asciiname', 'name'],
      search: { text: '{name} {ascii}', columns: ['country'], exact: true },
    });
    const { declaration, errors } = checkConfig(config, 'reflist.config.json');
    expect(errors).toEqual([]);
    const city = declaration!.lists.find((l) => l.name === 'city')!;
    expect(city.order).toEqual([
      { field: 1, descending: true },
      { field: 2, descending: false },
      { field: 0, descending: false },
    ]);
    expect(city.search).toEqual({ fields: [3], text: { template: '{name} {ascii}', parts: [0, ' ', 2] }, exact: true });
    expect(city.params).toEqual({ page: 'Page', term: 'Term', id: 'Id' });
    expect(
      checkConfig(
        withList('city', { fields: { name: 'string' }, search: { text: 'name' } }),
        'x',
      ).declaration!.lists.at(-1)!.search,
    ).toEqual({ fields: [], text: { template: '{name}', parts: [0] } });
    expect(validates(config)).toBe(true);
  });

  // [what is wrong, the config, the error, whether the schema alone can tell]
  const ERRORS: [string, object, string, boolean][] = [
    [
      'a parent that is no list',
      withList('speciesOfGenus', { parent: { list: 'genuss', column: 'genus_id' } }),
      'reflist.config.json: lists.speciesOfGenus.parent.list: no list "genuss" (did you mean "genus"?)',
      false,
    ],
    [
      'parents that form a cycle',
      withList('family', { parent: { list: 'speciesOfGenus', column: 'species_id' } }),
      'reflist.config.json: lists.family.parent: the parents form a cycle: family → speciesOfGenus → genus → family',
      false,
    ],
    [
      'a list under a paged list',
      withList('speciesOfGenus', {
        source: 'species.csv',
        path: 'species',
        parent: { list: 'species', column: 'species_id' },
        shape: 'whole',
      }),
      'reflist.config.json: lists.speciesOfGenus.parent: a parent is a "whole" or "grid" list for now ("species" is paged): declare "shape": "whole" in lists.species, or give "speciesOfGenus" another parent',
      false,
    ],
    [
      'counts on a paged list under a parent',
      withList('speciesOfGenus', {
        source: 'species.csv',
        path: 'species',
        parent: { list: 'genus', column: 'genus_id' },
        counts: 'species_count.csv',
      }),
      'reflist.config.json: lists.speciesOfGenus.counts: a paged list under a parent has no counts for now: drop "counts", or declare a list of its own without a parent for them',
      false,
    ],
    [
      'an order by a column that is no field',
      withList('city', { fields: { population: 'integer', name: 'string' }, order: ['-popultion'] }),
      'reflist.config.json: lists.city.order[0]: "popultion" is not one of the list\'s fields (did you mean "population"?); declare it in "fields" to order by it',
      false,
    ],
    [
      'an order by one field twice',
      withList('city', {
        fields: { population: 'integer', name: 'string' },
        order: ['-population', 'name', '+population'],
      }),
      'reflist.config.json: lists.city.order[2]: "population" is already an order key (lists.city.order[0])',
      false,
    ],
    [
      'an order that is no list of names',
      withList('city', { fields: { population: 'integer' }, order: '-population' }),
      'reflist.config.json: lists.city.order: expected a list of field names, each with "-" before it to sort descending, e.g. ["-population", "name"], got "-population"',
      true,
    ],
    [
      "an order on children embedded in their parent's items",
      withList(
        'division',
        { children: 'category' },
        { category: { parent: { list: 'division', column: 'division_id' }, order: ['text'] } },
      ),
      'reflist.config.json: lists.category.order: the children of "division" are in their parent\'s items in list order: drop "order"',
      false,
    ],
    [
      'a search text over a column that is no field',
      withList('city', { label: '{name} ({country})', fields: { name: 'string' }, search: { text: '{name} {asci}' } }),
      'reflist.config.json: lists.city.search.text: "asci" is not one of the list\'s fields; declare it in "fields" too, since the client makes the text from what items carry',
      false,
    ],
    [
      'a search text on a list with children',
      withList(
        'division',
        { children: 'category', fields: { code: 'string' }, search: { text: 'code' } },
        { category: { parent: { list: 'division', column: 'division_id' } } },
      ),
      "reflist.config.json: lists.division.search.text: a list with children searches its labels and its children's, no other text",
      false,
    ],
    [
      'an exact that is no flag',
      withList('city', { search: { exact: 'yes' } }),
      'reflist.config.json: lists.city.search.exact: expected true or false, got "yes"',
      true,
    ],
    [
      'search on a grid',
      withList('family', { shape: 'grid', search: { exact: true } }),
      'reflist.config.json: lists.family.search: a grid has no search',
      false,
    ],
    [
      'two lists on one path',
      withList('Family', { source: 'family.csv' }),
      'reflist.config.json: lists.Family: it has the path of list "family": /Family.json (paths match case-insensitively on some hosts)',
      false,
    ],
    [
      'a name that is not URL-safe',
      withList('family tree', {}),
      'reflist.config.json: lists.family tree: expected a list name: a letter, then up to 63 of A-Z a-z 0-9 _ -, got "family tree"',
      true,
    ],
    [
      'a string id with characters that cannot be a path',
      withList('work', { id: { column: 'doi', type: 'string', chars: 'a-z0-9./' } }),
      'reflist.config.json: lists.work.id.chars: ".", "/" cannot be in a path on every host; ids may hold A-Z a-z 0-9 _ -',
      false,
    ],
    [
      'an unknown key',
      withList('family', { lable: 'name' }),
      'reflist.config.json: lists.family.lable: unknown key (did you mean "label"?)',
      true,
    ],
    [
      'an unknown shape',
      withList('family', { shape: 'hole' }),
      'reflist.config.json: lists.family.shape: expected "paged", "whole" or "grid", got "hole" (did you mean "whole"?)',
      true,
    ],
    [
      'counts without groups',
      { lists: { family: { counts: 'family_count.csv' } } },
      'reflist.config.json: lists.family.counts: counts need "groups" at the top: the groups they are counted in',
      false,
    ],
    [
      'a parameter a whole list does not take',
      withList('genus', { parent: { list: 'family', column: 'family_id' }, shape: 'whole', params: { page: 'Page' } }),
      'reflist.config.json: lists.genus.params.page: only paged lists take page',
      false,
    ],
    [
      'children that do not name this list as their parent',
      withList('species', { children: 'genus' }),
      'reflist.config.json: lists.species.children.list: list "genus" must declare "parent": {"list": "species", …} to be its children',
      false,
    ],
    [
      "a source out of the config's folder",
      withList('family', { source: '../family.csv' }),
      'reflist.config.json: lists.family.source: expected a .csv file in the config\'s folder or below it, got "../family.csv"',
      true,
    ],
    [
      'search over a column that is no field',
      withList('family', { fields: { vernacular: 'string' }, search: { columns: ['vernaculr', 'acronym'] } }),
      'reflist.config.json: lists.family.search.columns: "vernaculr" is not one of the list\'s fields: declare it in "fields" too, since the client searches what items carry (did you mean "vernacular"?)',
      false,
    ],
    [
      'search over a number field',
      withList('family', { fields: { rank: 'integer' }, search: { columns: ['rank'] } }),
      'reflist.config.json: lists.family.search.columns: "rank" is a field of type integer; only string fields are searched',
      false,
    ],
    [
      'search over other columns of a list with children',
      withList('division', { children: 'category', fields: { code: 'string' }, search: { columns: ['code'] } }),
      "reflist.config.json: lists.division.search.columns: a list with children searches its labels and its children's, no other column",
      false,
    ],
    [
      'a field of no known type',
      withList('family', { fields: { rank: 'numbr' } }),
      'reflist.config.json: lists.family.fields.rank: expected integer, number or string, got "numbr" (did you mean "number"?)',
      true,
    ],
    [
      'an optional that is no flag',
      withList('family', { optional: 'yes' }),
      'reflist.config.json: lists.family.optional: expected true or false, got "yes"',
      true,
    ],
    [
      'a page size out of range',
      { ...OWN_LISTS, pageSize: 0 },
      'reflist.config.json: pageSize: expected an integer from 1 to 10000, got 0',
      true,
    ],
    [
      'a misspelt key of a source',
      withList('family', { source: { file: 'family.csv', delimter: ';' } }),
      'reflist.config.json: lists.family.source.delimter: unknown key (did you mean "delimiter"?)',
      true,
    ],
    [
      'a delimiter of no kind',
      withList('family', { source: { file: 'family.csv', delimiter: '|' } }),
      'reflist.config.json: lists.family.source.delimiter: expected ",", ";" or "\\t", got "|"',
      true,
    ],
    [
      'a parent without its column',
      withList('genus', { parent: { list: 'family' } }),
      "reflist.config.json: lists.genus.parent.column: expected the column holding the parent's id, or one column per ancestor, outermost first",
      true,
    ],
    [
      'a search rule of no kind',
      withList('family', { search: { match: 'phrses' } }),
      'reflist.config.json: lists.family.search.match: expected "words" (every word of the Term, in any order) or "phrase", got "phrses" (did you mean "phrase"?)',
      true,
    ],
    [
      'an order key given twice alike',
      withList('city', { fields: { name: 'string' }, order: ['name', 'name'] }),
      'reflist.config.json: lists.city.order[1]: "name" is there already, at lists.city.order[0]',
      true,
    ],
    [
      'a parameter that is no name',
      withList('species', { params: { term: 'the term' } }),
      'reflist.config.json: lists.species.params.term: expected a parameter name: a letter, then up to 63 of A-Z a-z 0-9 _ -, got "the term"',
      true,
    ],
    [
      'a host --host does not know',
      { ...OWN_LISTS, host: 'netlfy' },
      'reflist.config.json: host: expected one of github-pages, cloudflare-pages, cloudflare-pages-free, netlify, s3, r2, got "netlfy" (did you mean "netlify"?)',
      true,
    ],
  ];

  test.each(ERRORS)('%s is a located error that says what was expected', (_what, config, error, schemaTells) => {
    const { declaration, errors } = checkConfig(config, 'reflist.config.json');
    expect(declaration).toBeUndefined();
    expect(errors.map(String)).toContain(error);
    if (schemaTells) expect(validates(config)).toBe(false);
  });
});

test('every error is collected from the top down, each located, those of the schema and the rules of the lists it passed', () => {
  const config = {
    pageSize: 20000,
    hots: 'netlify',
    groups: OWN_LISTS.groups,
    lists: {
      ...OWN_LISTS.lists,
      'family tree': {},
      family: { lable: 'name', shape: 'hole', fields: { rank: 'numbr', size: { type: 'integer', mni: 0 } } },
      genus: { fields: { name: 'string' }, order: ['-nam'] },
    },
  };
  const { declaration, errors } = checkConfig(config, 'reflist.config.json');
  expect(declaration).toBeUndefined();
  expect(errors.map(String)).toEqual([
    'reflist.config.json: pageSize: expected an integer from 1 to 10000, got 20000',
    'reflist.config.json: hots: unknown key (did you mean "host"?)',
    'reflist.config.json: lists.family.lable: unknown key (did you mean "label"?)',
    'reflist.config.json: lists.family.shape: expected "paged", "whole" or "grid", got "hole" (did you mean "whole"?)',
    'reflist.config.json: lists.family.fields.rank: expected integer, number or string, got "numbr" (did you mean "number"?)',
    'reflist.config.json: lists.family.fields.size.mni: unknown key (did you mean "min"?)',
    'reflist.config.json: lists.family tree: expected a list name: a letter, then up to 63 of A-Z a-z 0-9 _ -, got "family tree"',
    // The schema passed genus: its order is checked against its fields.
    'reflist.config.json: lists.genus.order[0]: "nam" is not one of the list\'s fields (did you mean "name"?); declare it in "fields" to order by it',
  ]);
  expect(errors.every((e) => e.code === 'INVALID_CONFIG')).toBe(true);
  expect(validates(config)).toBe(false);
});

test("the page size takes one range, the schema's, in the config and on the command line", async () => {
  const inConfig = checkConfig({ ...OWN_LISTS, pageSize: 10001 }, 'reflist.config.json').errors.map(String);
  expect(inConfig).toEqual(['reflist.config.json: pageSize: expected an integer from 1 to 10000, got 10001']);
  expect(checkConfig({ ...OWN_LISTS, pageSize: 10000 }, 'x').declaration!.pageSize).toBe(10000);
  const { code, stderr } = await cli(['build', '--page-size', '10001']);
  expect(code).toBe(2);
  expect(stderr).toContain('--page-size: expected an integer from 1 to 10000, got "10001"');
  expect(schema).toMatchObject({ properties: { pageSize: { minimum: 1, maximum: 10000, default: 30 } } });
});

test('the relations between lists are derived, not written into the lists read: an embedded child comes back with embeddedIn and no parameters of its own', () => {
  const { declaration } = checkConfig(
    {
      lists: { division: { children: 'category' }, category: { parent: { list: 'division', column: 'division_id' } } },
    },
    'reflist.config.json',
  );
  // The lists as read, before their relations: the child as a list of its own.
  const read: ListSpec[] = declaration!.lists.map(({ embeddedIn: _, ...l }) =>
    l.name === 'category' ? { ...l, params: { term: 'Term' } } : l,
  );
  const before = structuredClone(read);
  const e = new Errors('reflist.config.json');
  const lists = checkRelations(e, read);
  expect(e.all).toEqual([]);
  expect(read).toEqual(before);
  expect(lists.find((l) => l.name === 'category')).toMatchObject({ embeddedIn: 'division', params: {} });
  expect(lists.find((l) => l.name === 'division')).toBe(read.find((l) => l.name === 'division'));
});

describe('a folder without a config', () => {
  test("of the lookup service's files alone is read as that preset, and the build says so in one line", async () => {
    const { 'descriptor.csv': _d, 'county.csv': _c, ...rest } = VALID;
    const sources = writeSources(tempDir(), rest);
    const { code, stdout } = await cli(['build', '--sources', sources, '--out', join(tempDir(), 'dist')]);
    expect(code).toBe(0);
    const [first, second] = stdout.split('\n');
    expect(first).toBe(
      `no reflist.config.json in ${sources}: built as the lookup-service preset, from ` +
        'system.csv, author.csv, author_count.csv, division.csv, division_count.csv, category.csv, country.csv, state.csv; absent, so empty: descriptor.csv, county.csv',
    );
    expect(second).toMatch(/^rows: /);
    const whole = writeSources(tempDir(), VALID);
    expect((await cli(['build', '--sources', whole, '--out', join(tempDir(), 'dist')])).stdout).toMatch(
      new RegExp(
        `^no reflist\\.config\\.json in ${whole}: built as the lookup-service preset, from all 10 of its files\nrows: `,
      ),
    );
  });

  test.each([
    ['reflist.json', '{"lists": {"country": {}}}'],
    ['lists.json', '\uFEFF{"lists": {}}'],
    ['reflist.config.json.bak.json', 'not even JSON'],
  ])('that holds %s, which looks like one, is refused with --config to name it', async (file, text) => {
    const sources = writeSources(tempDir(), {
      'country.csv': 'id,text\n40,Austria\n',
      'package.json': '{"name": "mine"}',
      [file]: text,
    });
    const dist = join(tempDir(), 'dist');
    const { code, stdout, stderr } = await cli(['build', '--sources', sources, '--out', dist]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      `--sources: ${sources} holds no reflist.config.json, but ${file} looks like one: name it with --config ${join(sources, file)}, or rename it reflist.config.json\n`,
    );
    expect(() => snapshotTree(dist)).toThrow();
  });

  test('that holds CSV files the lookup service does not name is refused, not read as that preset', async () => {
    const sources = writeSources(tempDir(), {
      'country.csv': 'id,text\n40,Austria\n',
      'city.csv': 'id,name,country\n1,Vienna,40\n',
      'data/airport.csv': 'iata,name\nVIE,Wien\n',
    });
    const { code, stdout, stderr } = await cli(['build', '--sources', sources, '--out', join(tempDir(), 'dist')]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      `--sources: ${sources} holds no reflist.config.json, and city.csv, data/airport.csv are none of the lookup service's files, so it is not read as that preset: ` +
        `declare your lists in ${join(sources, 'reflist.config.json')} (reflist init writes an example), or move them out to build the folder as the lookup service\n`,
    );
  });
});

describe('a declared source that is not there', () => {
  const country = { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole' };
  const COUNTRIES = 'code,name\nAT,Austria\nDE,Germany\n';
  const CITIES = 'id,name,country\n1,Vienna,AT\n2,Berlin,DE\n';

  /** A build of these lists and files into a tree built before from the same folder with every file there. */
  async function rebuild(lists: object, files: Record<string, string>, more: object = {}) {
    const dir = tempDir();
    const out = join(tempDir(), 'dist');
    writeSources(dir, {
      'reflist.config.json': JSON.stringify({ lists: { country, city: { label: 'name' } } }),
      'country.csv': COUNTRIES,
      'city.csv': CITIES,
    });
    expect((await cli(['build', '--sources', dir, '--out', out])).code).toBe(0);
    const before = snapshotTree(out);
    for (const file of ['city.csv', 'country.csv', 'reflist.config.json']) rmSync(join(dir, file));
    writeSources(dir, { 'reflist.config.json': JSON.stringify({ ...more, lists }), ...files });
    const built = await cli(['build', '--sources', dir, '--out', out]);
    return { ...built, dir, out, before };
  }

  test('fails the build with the CSV file its name most likely meant, and the previous tree stays as it was', async () => {
    const { code, stdout, stderr, dir, out, before } = await rebuild(
      { country, city: { source: 'cites.csv', label: 'name' } },
      { 'country.csv': COUNTRIES, 'city.csv': CITIES },
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `${dir}/reflist.config.json: lists.city.source: no file cites.csv in ${dir} (did you mean "city.csv"?); ` +
        'if it may be absent, declare "optional": true in lists.city: an absent source is then an empty list\nbuild failed with 1 error; nothing was written\n',
    );
    expect(snapshotTree(out)).toEqual(before);
  });

  test('deleted, or moved to a folder below, fails the build naming where it went or the CSV files no list reads', async () => {
    const moved = await rebuild(
      { country, city: { label: 'name' } },
      { 'country.csv': COUNTRIES, 'data/city.csv': CITIES },
    );
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain(
      `lists.city.source: no file city.csv in ${moved.dir} (did you mean "data/city.csv"?); if it may be absent`,
    );
    const gone = await rebuild(
      { country, city: { label: 'name' } },
      { 'country.csv': COUNTRIES, 'towns.csv': CITIES, 'notes.csv': 'a\n' },
    );
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(
      `lists.city.source: no file city.csv in ${gone.dir}; CSV files no list reads: notes.csv, towns.csv; if it may be absent`,
    );
    expect(snapshotTree(gone.out)).toEqual(gone.before);
  });

  test('of a list declared optional is an empty list, and the build says so', async () => {
    const { code, stdout, out } = await rebuild(
      { country, city: { label: 'name', optional: true } },
      { 'country.csv': COUNTRIES },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('city.csv: absent, built as an empty list\n');
    expect(stdout).toContain('rows: country 2, city 0\n');
    expect(JSON.parse(readFileSync(join(out, 'city', 'page', '1.json'), 'utf8'))).toEqual({ total: 0, items: [] });
  });

  test('counts and groups are sources too: each is named, with the lists that read it', async () => {
    const groups = { source: 'collection.csv', param: 'Collection' };
    const files = { 'country.csv': COUNTRIES, 'city.csv': CITIES };
    const { code, stderr } = await rebuild(
      { country, city: { label: 'name', counts: 'city_count.csv' }, town: { source: 'city.csv', label: 'name' } },
      files,
      { groups },
    );
    expect(code).toBe(1);
    expect(stderr).toContain('reflist.config.json: groups.source: no file collection.csv in');
    expect(stderr).toContain('if it may be absent, declare "optional": true in groups: an absent source');
    expect(stderr).toContain('reflist.config.json: lists.city.counts.source: no file city_count.csv in');
    expect(stderr).toMatch(/build failed with 2 errors/);
    // A file two lists read may be absent only when both say so.
    const shared = await rebuild(
      { country, city: { label: 'name', optional: true }, town: { source: 'city.csv', label: 'name' } },
      { 'country.csv': COUNTRIES },
    );
    expect(shared.stderr).toContain('lists.city.source: no file city.csv in');
    expect(shared.stderr).toContain(
      'declare "optional": true in lists.city and lists.town: an absent source is then an empty list',
    );
  });
});

describe('a build reads the config beside its sources', () => {
  const out = join(tempDir(), 'dist');
  const good = writeSources(tempDir(), { ...VALID, 'reflist.config.json': JSON.stringify(LOOKUP_SERVICE_CONFIG) });

  test("the preset builds from its config, and from the service's file names alone", async () => {
    expect((await cli(['build', '--sources', good, '--out', out])).code).toBe(0);
    const bare = join(tempDir(), 'dist');
    expect((await cli(['build', '--sources', writeSources(tempDir(), VALID), '--out', bare])).code).toBe(0);
    const strip = (tree: Map<string, string>) => new Map([...tree].filter(([path]) => !path.includes('.reflist')));
    expect(strip(snapshotTree(bare))).toEqual(strip(snapshotTree(out)));
  });

  const broken: [string, object, string][] = [
    [
      'a cycle among parents',
      withParent('division', 'category'),
      'reflist.config.json: lists.division.parent: the parents form a cycle',
    ],
    [
      'two lists on one path',
      { ...LOOKUP_SERVICE_CONFIG, lists: { ...LOOKUP_SERVICE_CONFIG.lists, Author: {} } },
      'lists.Author: it has the path of list "author"',
    ],
    [
      'a name that is not URL-safe',
      { ...LOOKUP_SERVICE_CONFIG, lists: { ...LOOKUP_SERVICE_CONFIG.lists, 'au/thor': {} } },
      'lists.au/thor: expected a list name',
    ],
    [
      'a template naming a missing column',
      { ...LOOKUP_SERVICE_CONFIG, lists: { ...LOOKUP_SERVICE_CONFIG.lists, descriptor: { label: '{text} ({code})' } } },
      'reflist.config.json: lists.descriptor.label: the template names column "code", which descriptor.csv does not have',
    ],
    [
      'a string id with characters that cannot be a path',
      {
        ...LOOKUP_SERVICE_CONFIG,
        lists: { ...LOOKUP_SERVICE_CONFIG.lists, descriptor: { id: { type: 'string', chars: 'a-z:' } } },
      },
      'reflist.config.json: lists.descriptor.id.chars: ":" cannot be in a path on every host',
    ],
    ['a file that is no JSON', '{"lists": {"author": {},}}' as unknown as object, 'reflist.config.json:1: not JSON'],
    [
      'a file that is no JSON for an invisible character',
      '\u200B{"lists": {}}' as unknown as object,
      'reflist.config.json: not JSON: Unexpected token \'<U+200B>\', "<U+200B>{"lists": {}}" is not valid JSON',
    ],
  ];

  function withParent(list: string, parent: string) {
    const lists: Record<string, object> = { ...LOOKUP_SERVICE_CONFIG.lists };
    lists[list] = { ...lists[list], parent: { list: parent, column: `${parent}_id` } };
    return { ...LOOKUP_SERVICE_CONFIG, lists };
  }

  test.each(broken)(
    '%s exits 1, writes nothing and leaves the previous tree as it was',
    async (_what, config, error) => {
      const before = snapshotTree(out);
      const sources = writeSources(tempDir(), {
        ...VALID,
        'reflist.config.json': typeof config === 'string' ? config : JSON.stringify(config),
      });
      const { code, stderr } = await cli(['build', '--sources', sources, '--out', out]);
      expect(code).toBe(1);
      expect(stderr).toContain(error);
      expect(snapshotTree(out)).toEqual(before);
    },
  );

  test('a config saved with a BOM builds as it does without one', async () => {
    const sources = writeSources(tempDir(), {
      ...VALID,
      'reflist.config.json': '\uFEFF' + JSON.stringify(LOOKUP_SERVICE_CONFIG),
    });
    const dist = join(tempDir(), 'dist');
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', dist]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const strip = (tree: Map<string, string>) => new Map([...tree].filter(([path]) => !path.includes('.reflist')));
    expect(strip(snapshotTree(dist))).toEqual(strip(snapshotTree(out)));
  });

  test("a column a relation names is the source's error, on its header line", async () => {
    const sources = writeSources(tempDir(), {
      'reflist.config.json': JSON.stringify({
        lists: {
          genus: { shape: 'whole' },
          species: { parent: { list: 'genus', column: 'genus_id' }, shape: 'whole' },
        },
      }),
      'genus.csv': 'id,text\n1,Quercus\n',
      'species.csv': 'id,genus,text\n1,1,Quercus robur\n',
    });
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', join(tempDir(), 'dist')]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'species.csv:1: no column "genus_id" (declared by lists.species.parent; did you mean "genus"?)\n',
    );
  });

  test.each([
    ['country_code', '; did you mean "country"?)'],
    ['nation', '); its header has "id", "name", "country"'],
  ])(
    'a parent column %s the header lacks is named with the closest of its columns, or with all of them when none is close',
    async (column, hint) => {
      const sources = writeSources(tempDir(), {
        'reflist.config.json': JSON.stringify({
          lists: {
            country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole' },
            countryCity: {
              source: 'city.csv',
              path: 'city',
              parent: { list: 'country', column },
              label: 'name',
              shape: 'whole',
            },
          },
        }),
        'country.csv': 'code,name\nAT,Austria\nDE,Germany\n',
        'city.csv': 'id,name,country\n1,Vienna,AT\n2,Berlin,DE\n',
      });
      const { code, stderr } = await cli(['build', '--sources', sources, '--out', join(tempDir(), 'dist')]);
      expect(code).toBe(1);
      expect(stderr).toContain(`city.csv:1: no column "${column}" (declared by lists.countryCity.parent${hint}\n`);
    },
  );

  test('a CSV file no list declares is named in a warning, never silently ignored', async () => {
    const sources = writeSources(tempDir(), {
      ...VALID,
      'reflist.config.json': JSON.stringify(LOOKUP_SERVICE_CONFIG),
      'institutions.csv': 'id,name\nUS-1,MIT\n',
    });
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', join(tempDir(), 'dist')]);
    expect(code).toBe(0);
    expect(stderr).toBe(
      `warning: ${join(sources, 'institutions.csv')}: no list declares it, so it is not built (declare it in ${join(sources, 'reflist.config.json')})\n`,
    );
  });

  test('--sources that is a file, or a folder holding none of the declared sources, fails and builds no tree', async () => {
    const dist = join(tempDir(), 'dist');
    const file = join(good, 'author.csv');
    expect(await cli(['build', '--sources', file, '--out', dist])).toMatchObject({
      code: 1,
      stderr: `--sources: ${file} is a file; expected the folder of your source CSV files and reflist.config.json\n`,
    });
    const empty = writeSources(tempDir(), { 'notes.txt': 'nothing here' });
    const { code, stderr } = await cli(['build', '--sources', empty, '--out', dist]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /holds no reflist\.config\.json and none of the lookup service's files \(system\.csv, author\.csv, /,
    );
    const declared = writeSources(tempDir(), { 'reflist.config.json': JSON.stringify({ lists: { genus: {} } }) });
    expect((await cli(['build', '--sources', declared, '--out', dist])).stderr).toContain('none of its sources is in');
    expect(() => snapshotTree(dist)).toThrow();
  });

  test('--config names a config elsewhere, and its sources are read relative to it', async () => {
    const project = writeSources(tempDir(), VALID);
    const config = join(project, 'lists.json');
    writeFileSync(config, JSON.stringify(LOOKUP_SERVICE_CONFIG));
    const dist = join(tempDir(), 'dist');
    const { code } = await cli(['build', '--config', config, '--out', dist]);
    expect(code).toBe(0);
    expect(snapshotTree(dist).has('author.json')).toBe(true);
    expect((await cli(['build', '--config', join(project, 'nope.json'), '--out', dist])).stderr).toBe(
      `--config: no such file ${join(project, 'nope.json')}\n`,
    );
  });
});
