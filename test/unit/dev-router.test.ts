// Where `reflist dev` sends each URL, as the value routeDev returns: no
// server, no browser. dev.test.ts checks the answers over real HTTP.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DEMO, type VendorSource } from '../../src/commands/demo-vendor.js';
import { routeDev, type DevState } from '../../src/commands/dev-router.js';

const WIDGETS = fileURLToPath(new URL('../../lib/widgets/', import.meta.url));
const CLIENT = fileURLToPath(new URL('../../lib/tree/', import.meta.url));
const VENDOR: ReadonlyMap<string, VendorSource> = new Map<string, VendorSource>([
  ['jquery.min.js', { root: '/project/node_modules/jquery', path: 'dist/jquery.min.js' }],
  ['select2.min.js', { redirect: 'https://cdn.jsdelivr.net/npm/select2@4.1.0/dist/js/select2.min.js' }],
]);

/** dev's state after a good build (a tree, no errors) or a failed one, with or without a tree from an earlier build. */
const state = (hasTree: boolean, errors: string[] = []): DevState => ({
  out: 'dist',
  hasTree: () => hasTree,
  errors: () => errors,
  vendor: VENDOR,
});
const built = state(true);

test.each([
  ['/', { kind: 'redirect', status: 302, location: '/demo/' }],
  ['/demo?list=author', { kind: 'redirect', status: 301, location: '/demo/?list=author' }],
  ['/demo/', { kind: 'files', root: DEMO, url: '/' }],
  ['/demo/demo.js', { kind: 'files', root: DEMO, url: '/demo.js' }],
  ['/demo/lookup/author.json?Term=smi&Page=2', { kind: 'tree', url: '/author.json?Term=smi&Page=2' }],
  ['/author.json?Term=smi&Page=2', { kind: 'tree', url: '/author.json?Term=smi&Page=2' }],
  ['/country/US/state.json', { kind: 'tree', url: '/country/US/state.json' }],
  ['/demo/widgets/tom-select.js', { kind: 'files', root: WIDGETS, url: '/tom-select.js' }],
  ['/demo/tree/lookup-client.js', { kind: 'files', root: CLIENT, url: '/lookup-client.js' }],
  ['/demo/tree/other.js', { kind: 'files', root: DEMO, url: '/tree/other.js' }],
  ['/demo/vendor/react-select.js', { kind: 'react' }],
  [
    '/demo/vendor/jquery.min.js?v=1',
    { kind: 'files', root: '/project/node_modules/jquery', url: '/dist/jquery.min.js' },
  ],
  [
    '/demo/vendor/select2.min.js',
    { kind: 'redirect', status: 302, location: 'https://cdn.jsdelivr.net/npm/select2@4.1.0/dist/js/select2.min.js' },
  ],
  ['/demo/vendor/left-pad.js', { kind: 'json', status: 404, body: { error: 'not found: /demo/vendor/left-pad.js' } }],
])('%s goes to %j', (url, route) => {
  expect(routeDev(url, built)).toEqual(route);
});

describe('after a failed build', () => {
  const errors = ['author.csv:3: duplicate id 5 (first on line 2)'];

  test.each(['/author.json?Term=smi', '/demo/lookup/author.json?Term=smi'])(
    '%s is still answered from the last good tree',
    (url) => {
      expect(routeDev(url, state(true, errors))).toMatchObject({ kind: 'tree' });
    },
  );

  test.each(['/author.json?Term=smi', '/demo/lookup/author.json?Term=smi'])(
    '%s answers 503 with the errors while no build has made a tree',
    (url) => {
      expect(routeDev(url, state(false, errors))).toEqual({
        kind: 'json',
        status: 503,
        body: { error: 'no tree at dist yet', errors },
      });
    },
  );

  test('the demo page is still served', () => {
    expect(routeDev('/demo/', state(false, errors))).toEqual({ kind: 'files', root: DEMO, url: '/' });
  });
});
