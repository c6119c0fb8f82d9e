import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { run } from '../../src/cli.js';
import { listTypes } from '../../src/commands/types.js';
import { checkConfig, type Declaration } from '../../src/config/declaration.js';
import { PRESETS } from '../../src/config/preset.js';
import { tempDir, writeSources } from '../helpers.js';
import { NESTED_CONFIG } from '../fixtures/cities.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

function declared(config: object): Declaration {
  const { declaration, errors } = checkConfig(config, 'reflist.config.json');
  if (!declaration) throw new Error(errors.join('\n'));
  return declaration;
}

/** Every kind of key an item has: ids of both forms and renamed, fields of each type, counts, children, keys in another order, a grid. */
const EVERY_KIND = {
  groups: { source: 'collection.csv', param: 'Collection' },
  lists: {
    city: {
      fields: { population: 'integer', area: 'number', mayor: 'string' },
      counts: { source: 'city_count.csv', group: 'collection' },
      items: true,
    },
    region: {
      id: { column: 'code', type: 'string', key: 'code' },
      label: { template: '{name} ({code})', key: 'name' },
      fields: { 'pop-total': { column: 'pop', type: 'integer' } },
      keys: ['name', 'code', 'pop-total'],
      shape: 'whole',
      items: true,
    },
    district: {
      parent: { list: 'region', column: 'region_code' },
      fields: { lat: 'number', elevation: { type: 'integer', optional: true } },
      shape: 'grid',
      items: true,
    },
    division: {
      children: { list: 'category', key: 'categories' },
      counts: { source: 'division_count.csv', group: 'collection' },
      params: { group: false },
    },
    category: { parent: { list: 'division', column: 'division_id' } },
    'tag-set': { search: false },
    tag_set: { search: false },
  },
};

const EXAMPLE_TYPES = `// The lists sources/reflist.config.json declares, as types: written by
// \`reflist types\`, and again after every edit of the config. With them,
// reflist/client types each answer by its URL's path:
//
//   import { createLookupClient } from 'reflist/client';
//   import type { Lists } from './reflist-lists.js';
//
//   const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });
//   const answer = await client.request('/country.json');
//   if (answer.status === 200) answer.body.items; // CountryItem[]

/** country: whole at /country.json (Term); each item at /country/{id}.json. */
export type CountryItem = {
  id: string;
  text: string;
};

/** institution: paged at /institution.json (Page, Term, Id); each item at /institution/{id}.json. */
export type InstitutionItem = {
  id: string;
  text: string;
  city: string;
  country: string;
};

/** countryInstitution: whole at /country/{id}/institution.json (Term). */
export type CountryInstitutionItem = {
  id: string;
  text: string;
};

/** family: whole at /family.json (Term); each item at /family/{id}.json. */
export type FamilyItem = {
  id: number;
  text: string;
};

/** genus: whole at /family/{id}/genus.json (Term); each item at /family/{id}/genus/{id}.json. */
export type GenusItem = {
  id: number;
  text: string;
};

/** genusSpecies: whole at /family/{id}/genus/{id}/species.json (Term). */
export type GenusSpeciesItem = {
  id: number;
  text: string;
};

/** species: paged at /species.json (Page, Term, Id, Collection). */
export type SpeciesItem = {
  id: number;
  text: string;
  vernacular: string;
  count?: number;
};

/** The lists a client requests, by name: shape, path and item (embedded children are in their parents' items). */
export type Lists = {
  country: { shape: 'whole'; path: ['country.json']; itemPath: ['country', \`\${string}.json\`]; item: CountryItem };
  institution: { shape: 'paged'; path: ['institution.json']; itemPath: ['institution', \`\${string}.json\`]; item: InstitutionItem };
  countryInstitution: { shape: 'whole'; path: ['country', string, 'institution.json']; item: CountryInstitutionItem };
  family: { shape: 'whole'; path: ['family.json']; itemPath: ['family', \`\${string}.json\`]; item: FamilyItem };
  genus: { shape: 'whole'; path: ['family', string, 'genus.json']; itemPath: ['family', string, 'genus', \`\${string}.json\`]; item: GenusItem };
  genusSpecies: { shape: 'whole'; path: ['family', string, 'genus', string, 'species.json']; item: GenusSpeciesItem };
  species: { shape: 'paged'; path: ['species.json']; item: SpeciesItem };
};
`;

describe('listTypes: a declaration as TypeScript types', () => {
  test('the example reflist init starts with gives each list its item type and its paths', () => {
    expect(listTypes(declared(PRESETS.example.config), 'sources/reflist.config.json', './reflist-lists.js')).toBe(
      EXAMPLE_TYPES,
    );
  });

  const text = listTypes(declared(EVERY_KIND), 'reflist.config.json', './reflist-lists.js');
  test.each([
    [
      'an integer id is a number, fields by their type, a list with counts an optional count',
      'CityItem',
      ['id: number;', 'text: string;', 'population: number;', 'area: number;', 'mayor: string;', 'count?: number;'],
    ],
    [
      'a string id under its own key, the label under its own, the keys in declared order, a key that is no identifier quoted',
      'RegionItem',
      ['name: string;', 'code: string;', '"pop-total": number;'],
    ],
    [
      'a grid row has its keys and no count; an optional field may be null',
      'DistrictItem',
      ['id: number;', 'text: string;', 'lat: number;', 'elevation: number | null;'],
    ],
    [
      "children under their key, as their list's items; no count where the list takes no group",
      'DivisionItem',
      ['id: number;', 'text: string;', 'categories: CategoryItem[];'],
    ],
    ['embedded children are an id and a label', 'CategoryItem', ['id: number;', 'text: string;']],
    ['names that differ by - and _ get types of their own', 'TagSetItem', ['id: number;', 'text: string;']],
    ['… the second numbered', 'TagSet2Item', ['id: number;', 'text: string;']],
  ])('%s', (_, name, keys) => {
    const type = new RegExp(`export type ${name} = \\{\\n((?:  .*\\n)*)\\};`).exec(text);
    expect(type?.[1]).toBe(keys.map((k) => `  ${k}\n`).join(''));
  });

  test.each([
    ['city', "{ shape: 'paged'; path: ['city.json']; itemPath: ['city', `${string}.json`]; item: CityItem }"],
    ['region', "{ shape: 'whole'; path: ['region.json']; itemPath: ['region', `${string}.json`]; item: RegionItem }"],
    [
      'district',
      "{ shape: 'grid'; path: ['region', string, 'district.json']; itemPath: ['region', string, 'district', `${string}.json`]; item: DistrictItem }",
    ],
    ['division', "{ shape: 'paged'; path: ['division.json']; item: DivisionItem }"],
    ['"tag-set"', "{ shape: 'paged'; path: ['tag-set.json']; item: TagSetItem }"],
    ['tag_set', "{ shape: 'paged'; path: ['tag_set.json']; item: TagSet2Item }"],
  ])('Lists says where %s is and what it answers', (name, entry) => {
    expect(text).toContain(`\n  ${name}: ${entry};\n`);
  });

  test("embedded children are in their parents' items, not in Lists", () => {
    expect(text).not.toMatch(/^ {2}category:/m);
  });
});

/**
 * A strict TypeScript program of the types' file and a consumer, with
 * reflist/client from src/: the type of each `export type` the consumer
 * declares, and the errors.
 */
function typeCheck(files: Record<string, string>): { types: Map<string, string>; errors: string[] } {
  const dir = tempDir('reflist-types-');
  writeSources(dir, { 'package.json': '{ "type": "module" }', ...files });
  const program = ts.createProgram(
    Object.keys(files)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      paths: {
        'reflist/client': [fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))],
        'reflist/*': [fileURLToPath(new URL('../../src/widgets/*.ts', import.meta.url))],
      },
    },
  );
  const checker = program.getTypeChecker();
  const types = new Map<string, string>();
  const consumer = program.getSourceFile(join(dir, 'use.ts'))!;
  for (const node of consumer.statements) {
    if (!ts.isTypeAliasDeclaration(node)) continue;
    const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(node.name)!);
    types.set(node.name.text, checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation));
  }
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file
      ? `${d.file.fileName.slice(dir.length + 1)}(${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}): `
      : '';
    return `${at}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  return { types, errors };
}

describe("a client typed by the lists' types", () => {
  const bodies: [url: string, body: string][] = [
    ['/city.json?Term=ber&Collection=x', 'Envelope<CityItem>'],
    ['/city/7.json', 'CityItem'],
    ['/region.json', 'Envelope<RegionItem>'],
    ['/region/BY.json', 'RegionItem'],
    ['/region/BY/district.json', 'Grid<DistrictItem>'],
    ['/region/BY/district/9.json', 'DistrictItem'],
    ['/division.json?Id=1&child=true', 'Envelope<DivisionItem>'],
  ];
  const consumer = `
    import { createLookupClient, select2Ajax } from 'reflist/client';
    import { loadPage } from 'reflist/react-select';
    import { tomSelectSettings } from 'reflist/tom-select';
    import type { Lists } from './reflist-lists.js';
    const client = createLookupClient<Lists>({ baseUrl: 'https://example.org/lookup/' });
    export const adapters = [select2Ajax(client, 'city'), loadPage(client, 'city'), tomSelectSettings(client, 'city')];
    type Ok<A> = A extends { status: 200; body: infer Body } ? Body : never;
    type At<Url extends string> = Ok<Awaited<ReturnType<typeof client.request<Url>>>>;
    ${bodies.map(([url], i) => `export type Body${i} = At<'${url}'>;`).join('\n    ')}
    export type Built = At<\`/region/\${string}/district.json\`>;
    export type Dynamic = At<string>;
    export type Looked = Awaited<ReturnType<typeof client.lookup<'city'>>>['items'][number];
    const region = 'BY' as string;
    const answer = await client.request(\`/region/\${region}/district.json\`);
    export const lat: number | undefined = answer.status === 200 ? answer.body.rows[0]?.lat : undefined;
    const { status, body } = await client.request('/city.json?Term=ber');
    export const population: number | undefined = status === 200 ? body.items[0]?.population : undefined;
    export const text: string | undefined = 'items' in body ? body.items[0]?.text : undefined;
  `;
  const checked = typeCheck({
    'reflist-lists.d.ts': listTypes(declared(EVERY_KIND), 'reflist.config.json', './reflist-lists.js'),
    'use.ts': consumer,
  });

  test('the strict consumer compiles, and the drop-down adapters take the typed client', () => {
    expect(checked.errors).toEqual([]);
  });

  test.each(bodies.map(([url, body], i) => [url, body, i] as const))('a 200 to %s is %s', (_, body, i) => {
    expect(checked.types.get(`Body${i}`)).toBe(body);
  });

  test("a URL built from a string id is the list at its path; one known only as a string, any list's body", () => {
    expect(checked.types.get('Built')).toBe('Grid<DistrictItem>');
    expect(checked.types.get('Dynamic')!.split(' | ').sort()).toEqual([
      'CityItem',
      'DistrictItem',
      'Envelope<CityItem>',
      'Envelope<DivisionItem>',
      'Envelope<RegionItem>',
      'Envelope<TagSet2Item>',
      'Envelope<TagSetItem>',
      'Grid<DistrictItem>',
      'RegionItem',
    ]);
  });

  test("lookup answers a paged list's items", () => {
    expect(checked.types.get('Looked')).toBe('CityItem');
  });

  test('a path no list has, a lookup of a list that is not paged and a misread field do not compile', () => {
    const { errors } = typeCheck({
      'reflist-lists.d.ts': listTypes(declared(EVERY_KIND), 'reflist.config.json', './reflist-lists.js'),
      'use.ts': `
        import { createLookupClient } from 'reflist/client';
        import type { Lists } from './reflist-lists.js';
        const client = createLookupClient<Lists>({ baseUrl: 'https://example.org/lookup/' });
        await client.request('/citi.json?Term=ber');
        await client.request('/city/7/district.json');
        await client.lookup('region', ['BY']);
        const answer = await client.request('/city.json');
        export const mayor: number | undefined = answer.status === 200 ? answer.body.items[0]?.mayor : undefined;
      `,
    });
    expect(errors).toEqual([
      `use.ts(5): Argument of type '"/citi.json?Term=ber"' is not assignable to parameter of type '"/citi.json?Term=ber: no declared list has this path"'.`,
      `use.ts(6): Argument of type '"/city/7/district.json"' is not assignable to parameter of type '"/city/7/district.json: no declared list has this path"'.`,
      `use.ts(7): Argument of type '"region"' is not assignable to parameter of type '"city" | "division" | "tag-set" | "tag_set"'.`,
      `use.ts(9): Type 'string | undefined' is not assignable to type 'number | undefined'.\n  Type 'string' is not assignable to type 'number'.`,
    ]);
  });

  test('a paged list under a parent types its pages, and lookup, which reads ids without their parent, does not take it', () => {
    const { errors } = typeCheck({
      'reflist-lists.d.ts': listTypes(declared(NESTED_CONFIG), 'reflist.config.json', './reflist-lists.js'),
      'use.ts': `
        import { createLookupClient } from 'reflist/client';
        import type { Lists } from './reflist-lists.js';
        const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });
        const answer = await client.request('/country/US/city.json?Term=san&Page=2');
        export const population: number | undefined = answer.status === 200 ? answer.body.items[0]?.population : undefined;
        await client.lookup('city', [4]);
      `,
    });
    expect(errors).toEqual([`use.ts(7): Argument of type '"city"' is not assignable to parameter of type 'never'.`]);
  });

  test("the example's types compile for a consumer of its species", () => {
    const { errors } = typeCheck({
      'reflist-lists.d.ts': EXAMPLE_TYPES,
      'use.ts': `
        import { createLookupClient } from 'reflist/client';
        import type { Lists } from './reflist-lists.js';
        const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });
        const answer = await client.request('/species.json?Term=quer&Collection=herbarium');
        export const counts: (number | undefined)[] = answer.status === 200 ? answer.body.items.map((s) => s.count) : [];
        const genus = await client.request('/family/1/genus/10.json');
        export const id: number | undefined = genus.status === 200 ? genus.body.id : undefined;
      `,
    });
    expect(errors).toEqual([]);
  });
});

describe('reflist types', () => {
  function project(): string {
    const dir = tempDir('reflist-types-cli-');
    writeSources(join(dir, 'sources'), {
      'reflist.config.json': JSON.stringify({ lists: { city: { fields: { population: 'integer' } } } }),
      'city.csv': 'id,text,population\n1,Berlin,3878100\n',
    });
    return dir;
  }

  test('writes reflist-lists.d.ts where it is told, and says so; run again, it leaves the file as it is', async () => {
    const dir = project();
    const out = join(dir, 'types/reflist-lists.d.ts');
    const first = await cli(['types', '--sources', join(dir, 'sources'), '--out', out]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `wrote ${out}: the types of 1 list; import type { Lists } from it for createLookupClient<Lists>()\n`,
    );
    expect(readFileSync(out, 'utf8')).toContain(
      'export type CityItem = {\n  id: number;\n  text: string;\n  population: number;\n};',
    );
    const written = statSync(out).mtimeMs;
    const again = await cli(['types', '--sources', join(dir, 'sources'), '--out', out]);
    expect(again.stdout).toBe(`${out}: unchanged (1 list)\n`);
    expect(statSync(out).mtimeMs).toBe(written);
  });

  test('a config with an error writes nothing: the error is printed with the file and the key, the previous types stay', async () => {
    const dir = project();
    const out = join(dir, 'reflist-lists.d.ts');
    writeFileSync(out, '// the previous types\n');
    writeFileSync(
      join(dir, 'sources/reflist.config.json'),
      JSON.stringify({ lists: { city: { feilds: { population: 'integer' } } } }),
    );
    const failed = await cli(['types', '--sources', join(dir, 'sources'), '--out', out]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('lists.city.feilds: unknown key (did you mean "fields"?)');
    expect(readFileSync(out, 'utf8')).toBe('// the previous types\n');
  });

  test.each([
    [
      'a name without .d.ts',
      'lists.ts',
      (out: string) => `--out: expected a file whose name ends in .d.ts, got "${out}" (e.g. ${out.slice(0, -3)}.d.ts)`,
    ],
    [
      'a folder',
      'sources',
      (out: string) => `--out: ${out} is a folder; expected a file such as ${out}/reflist-lists.d.ts`,
    ],
  ])('--out naming %s is refused with what to name, and nothing is written', async (_, name, message) => {
    const dir = project();
    const out = join(dir, name);
    const failed = await cli(['types', '--sources', join(dir, 'sources'), '--out', out]);
    expect(failed).toMatchObject({ code: 1, stderr: `${message(out)}\n` });
    expect(existsSync(out) && statSync(out).isFile()).toBe(false);
    expect(existsSync(join(out, 'reflist-lists.d.ts'))).toBe(false);
  });
});
