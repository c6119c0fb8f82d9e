// The lookup service (docs/contract.md) as a declaration: the one module that
// names its lists. The shipped sources/reflist.config.json is this, written out.
import { checkConfig, type Declaration } from './declaration.js';

/** The contract's Term (docs/contract.md §2): the phrase at a word start, with no typos. */
const PHRASE = { match: 'phrase' };

/**
 * Every source of the service is optional: its contract builds an absent file
 * as an empty list (docs/contract.md §5), and a project of the service may
 * well have no counties, or no counts.
 */
export const LOOKUP_SERVICE_CONFIG = {
  $schema: '../node_modules/reflist/schema/reflist.config.schema.json',
  groups: { source: 'system.csv', param: 'System', optional: true },
  lists: {
    author: { counts: { source: 'author_count.csv', group: 'system' }, search: PHRASE, optional: true },
    division: {
      counts: { source: 'division_count.csv', group: 'system' },
      children: 'category',
      search: PHRASE,
      optional: true,
    },
    category: { parent: { list: 'division', column: 'division_id' }, optional: true },
    descriptor: { search: PHRASE, optional: true },
    country: { shape: 'whole', items: true, search: PHRASE, optional: true },
    state: {
      parent: { list: 'country', column: 'country_id' },
      shape: 'whole',
      items: true,
      search: PHRASE,
      optional: true,
    },
    county: {
      parent: { list: 'state', column: ['country_id', 'state_id'] },
      id: { column: 'FIPS', key: 'FIPS' },
      label: { column: 'county', key: 'county' },
      fields: {
        latitudeCenter: { type: 'number', min: -90, max: 90 },
        LongitudeCenter: { type: 'number', min: -180, max: 180 },
      },
      keys: ['FIPS', 'LongitudeCenter', 'county', 'latitudeCenter'],
      shape: 'grid',
      items: true,
      optional: true,
    },
  },
};

/**
 * A few rows of every source, each referring only to rows that exist (counts
 * to systems and items, states to countries, counties to states, categories
 * to divisions), so the scaffold builds with no errors.
 */
const EXAMPLE_ROWS = {
  author: `id,text
1,"Müller, Anna"
2,"Smith, John"
3,"García López, María"
4,"Nguyễn, Văn An"
`,
  country: `id,text
124,Canada
276,Germany
840,United States
`,
  state: `id,country_id,text
948,124,Québec
430,276,Bayern
6,840,California
36,840,New York
`,
  county: `country_id,state_id,FIPS,county,latitudeCenter,LongitudeCenter
840,6,6037,Los Angeles,34.3203,-118.2251
840,6,6075,San Francisco,37.7546,-122.4400
840,36,36061,New York,40.7749,-73.9695
`,
  division: `id,text
1,Mammalia
2,Aves
`,
  category: `id,division_id,text
1,1,Primates
2,1,Rodentia
3,2,Passeriformes
`,
  descriptor: `id,text
1,Taxonomy
2,Phylogenetics
3,Biogeography – Amazonia
`,
  system: `id,text
gbif,GBIF – Global Biodiversity Information Facility
col,Catalogue of Life
`,
  author_count: `system,id,count
gbif,1,12
gbif,2,3
col,1,5
`,
  division_count: `system,id,count
gbif,1,40
gbif,2,25
col,1,7
`,
};

/** What each source is for, one line of the README's table. */
const PURPOSE: Record<keyof typeof EXAMPLE_ROWS, string> = {
  author: 'authors, family name first',
  country: 'countries (the ISO numeric code is a good id: 840)',
  state: "each country's states (the key is country_id and id)",
  county: "each state's counties with their centre (the key is country_id, state_id and FIPS)",
  division: 'divisions, the parents in the division drop-down',
  category: "the divisions' children (ids of their own, apart from the divisions')",
  descriptor: 'descriptors (keywords)',
  system: 'systems whose counts the author and division lists show (id: letters, digits, `_` and `-`)',
  author_count: 'how many items a system has for an author (an author without a row counts 0)',
  division_count: 'how many items a system has for a division (likewise)',
};

/** What `init --preset` writes: a config, and sources with a few rows each, described in the project's README. */
export interface Preset {
  config: object;
  sources: { file: string; text: string; purpose: string }[];
  /** A query URL the project's README shows. */
  example: string;
}

/**
 * What `reflist init` starts a project with (docs/lists.md, A worked example):
 * institutions with ISO country codes, searchable and listed under their
 * country, and a taxonomy family → genus → species with counts per collection.
 */
const EXAMPLE_CONFIG = {
  $schema: '../node_modules/reflist/schema/reflist.config.schema.json',
  groups: { source: 'collection.csv', param: 'Collection' },
  lists: {
    country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole', items: true },
    institution: {
      id: { column: 'id', type: 'string' },
      label: '{name} ({city})',
      fields: { city: 'string', country: { column: 'country_code', type: 'string' } },
      search: { columns: ['country_code'] },
      items: true,
    },
    countryInstitution: {
      source: 'institution.csv',
      path: 'institution',
      parent: { list: 'country', column: 'country_code' },
      id: { column: 'id', type: 'string' },
      label: '{name} ({city})',
      shape: 'whole',
    },
    family: { shape: 'whole', items: true },
    genus: { parent: { list: 'family', column: 'family_id' }, shape: 'whole', items: true },
    genusSpecies: {
      source: 'species.csv',
      path: 'species',
      parent: { list: 'genus', column: 'genus_id' },
      shape: 'whole',
    },
    species: {
      fields: { vernacular: 'string' },
      search: { columns: ['vernacular'] },
      counts: { source: 'species_count.csv', group: 'collection' },
    },
  },
};

const EXAMPLE_SOURCES = [
  ['country.csv', 'code,name\nDE,Germany\nFR,France\nJP,Japan\nUS,United States\n', 'countries, by ISO code'],
  [
    'institution.csv',
    `id,name,city,country_code
US-SI,Smithsonian Institution,Washington,US
US-FMNH,Field Museum,Chicago,US
DE-MFN,Museum für Naturkunde,Berlin,DE
FR-MNHN,Muséum national d'Histoire naturelle,Paris,FR
JP-NSM,National Museum of Nature and Science,Tokyo,JP
`,
    'institutions: searchable by name, city and country code (institution.json), and listed under their country (country/US/institution.json)',
  ],
  ['family.csv', 'id,text\n1,Fagaceae\n2,Rosaceae\n3,Felidae\n', 'families, the first level of the taxonomy'],
  [
    'genus.csv',
    'id,family_id,text\n10,1,Quercus\n11,1,Fagus\n20,2,Rosa\n21,2,Prunus\n30,3,Panthera\n31,3,Felis\n',
    "each family's genera (family/1/genus.json)",
  ],
  [
    'species.csv',
    `id,genus_id,text,vernacular
100,10,Quercus robur,English oak
101,10,Quercus petraea,Sessile oak
110,11,Fagus sylvatica,European beech
200,20,Rosa canina,Dog rose
210,21,Prunus avium,Wild cherry
300,30,Panthera leo,Lion
301,30,Panthera tigris,Tiger
310,31,Felis catus,Cat
`,
    "species: searchable by name and common name with counts (species.json), and each genus's (family/1/genus/10/species.json)",
  ],
  [
    'collection.csv',
    'id,text\nherbarium,Herbarium\nzoology,Zoological collection\n',
    'the collections species are counted in (?Collection=herbarium)',
  ],
  [
    'species_count.csv',
    'collection,id,count\nherbarium,100,120\nherbarium,101,45\nherbarium,110,80\nherbarium,200,33\nherbarium,210,18\nzoology,300,12\nzoology,301,7\nzoology,310,54\n',
    'how many specimens a collection holds of a species (none: 0)',
  ],
] as const;

/** The presets `init --preset` knows, by name. */
export const PRESETS = {
  example: {
    config: EXAMPLE_CONFIG,
    sources: EXAMPLE_SOURCES.map(([file, text, purpose]) => ({ file, text, purpose })),
    example: '/species.json?Term=quer&Collection=herbarium',
  },
  'lookup-service': {
    config: LOOKUP_SERVICE_CONFIG,
    sources: (Object.keys(EXAMPLE_ROWS) as (keyof typeof EXAMPLE_ROWS)[]).map((name) => ({
      file: `${name}.csv`,
      text: EXAMPLE_ROWS[name],
      purpose: PURPOSE[name],
    })),
    example: '/author.json?Term=mü',
  },
} satisfies Record<string, Preset>;
export type PresetName = keyof typeof PRESETS;

const { pageSize: _, ...lookupService } = checkConfig(LOOKUP_SERVICE_CONFIG, 'preset').declaration!;
const LOOKUP_SERVICE = JSON.stringify(lookupService);

/** Whether a declaration says what the lookup-service preset says, a page size aside. */
export function isLookupService(d: Declaration): boolean {
  const { pageSize: _, ...rest } = d;
  return JSON.stringify(rest) === LOOKUP_SERVICE;
}
