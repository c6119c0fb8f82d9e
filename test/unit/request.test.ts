// A request → its route, or the 400 or 404 that needs no file: the table of
// the lookup service's URLs (docs/contract.md §1), with no tree and no server.
import { describe, expect, test } from 'vitest';
import { parseQuery, parseRequest, splitUrl } from '../../src/client/request.js';
import { apiOf } from '../../src/config/api.js';
import { checkConfig } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';
import { NESTED_CONFIG } from '../fixtures/cities.js';

const apiFrom = (config: object) => apiOf(checkConfig(structuredClone(config), 'reflist.config.json').declaration!);
const SERVICE = apiFrom(LOOKUP_SERVICE_CONFIG);
const NESTED = apiFrom(NESTED_CONFIG);

/** A route with its list by name, to compare. */
function route(url: string, api = SERVICE): unknown {
  const r = parseRequest(url, api);
  return 'list' in r ? { ...r, list: r.list.name } : r;
}

describe('a paged list', () => {
  test.each([
    ['/author.json', { page: 1, q: '', child: false }],
    ['/author.json?Term=M%C3%BCller&Page=2', { page: 2, q: 'muller', child: false }],
    ['/author.json?term=SMI&PAGE=3', { page: 3, q: 'smi', child: false }],
    ['/author.json?Page=', { page: 1, q: '', child: false }],
    ['/author.json?Page=2&Page=5', { page: 2, q: '', child: false }],
    ['/author.json?Id=007', { page: 1, q: '', child: false, id: '7' }],
    ['/author.json?System=gbif', { page: 1, q: '', child: false, group: 'gbif' }],
    ['/division.json?Child=true&Id=3', { page: 1, q: '', child: true, id: '3' }],
    ['/division.json?Child=0', { page: 1, q: '', child: false }],
  ])('%s is page, term and options %j', (url, expected) => {
    expect(route(url)).toEqual({ kind: 'paged', list: url.slice(1).split('.')[0], ...expected });
  });

  test.each([
    ['/author.json?Page=0', 'Page: expected an integer ≥ 1, got "0"'],
    ['/author.json?Page=two', 'Page: expected an integer ≥ 1, got "two"'],
    ['/author.json?Id=x1', 'Id: expected digits, got "x1"'],
    ['/division.json?child=yes', 'child: expected true, false, 1 or 0, got "yes"'],
  ])('%s answers 400: %s', (url, error) => {
    expect(route(url)).toEqual({ status: 400, error });
  });
});

describe('lists under a parent', () => {
  test.each([
    ['/country.json', { kind: 'whole', list: 'country', file: 'country.json', q: '' }],
    ['/country/0840.json', { kind: 'file', list: 'country', file: 'country/840.json' }],
    ['/country/840/state.json', { kind: 'whole', list: 'state', file: 'country/840/state.json', q: '' }],
    ['/country/840/state/6/county.json', { kind: 'file', list: 'county', file: 'country/840/state/6/county.json' }],
  ])('%s is %j', (url, expected) => {
    expect(route(url)).toEqual(expected);
  });

  test.each([
    [
      '/country/US/city.json?Page=2&Term=san',
      { kind: 'paged', list: 'city', page: 2, q: 'san', child: false, under: { chain: 'US', prefix: 'country/US/' } },
    ],
    [
      '/country/US/region/CA/town.json?p=3&item=0042',
      {
        kind: 'paged',
        list: 'town',
        page: 3,
        q: '',
        id: '42',
        child: false,
        under: { chain: 'US/CA', prefix: 'country/US/region/CA/' },
      },
    ],
  ])('a paged list under a parent: %s is %j', (url, expected) => {
    expect(route(url, NESTED)).toEqual(expected);
  });

  test('a 400 under a parent names the file whose absence makes it a 404 (an unknown parent)', () => {
    expect(route('/country/US/region/CA/town.json?p=0', NESTED)).toEqual({
      status: 400,
      error: 'p: expected an integer ≥ 1, got "0"',
      unlessMissing: 'country/US/region/CA/town.json',
    });
  });
});

test.each([
  '/nope.json',
  '/author',
  '/author/5.json', // author has no item files
  '/country/abc/state.json', // country ids are integers
  '/country%2F840/state.json', // an escaped / stays in its segment
  '/country/840/nope.json',
  '//x/author.json', // a path, not a protocol-relative URL to host x
  '/author.json/',
])('%s answers 404', (url) => {
  expect(route(url)).toMatchObject({ status: 404 });
});

test('query names are matched in any case, the first wins, and an empty value counts as absent', () => {
  expect([...parseQuery('?TERM=a&term=b&Page=&Id=3')]).toEqual([
    ['term', 'a'],
    ['id', '3'],
  ]);
});

test('a path is percent-decoded where it can be, and kept as it came where it cannot', () => {
  expect(splitUrl('/a%20b.json?x=1')).toEqual({ path: '/a b.json', search: '?x=1' });
  expect(splitUrl('/a%E0%A4%A.json')).toEqual({ path: '/a%E0%A4%A.json', search: '' });
  expect(splitUrl('http://host/author.json?Term=a')).toEqual({ path: '/author.json', search: '?Term=a' });
});
