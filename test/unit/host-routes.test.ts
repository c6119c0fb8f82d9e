// What every host adapter leaves to the host's files and what it answers,
// from the URL and lookup.json's lists alone.
import { expect, test } from 'vitest';
import { adapterRouteOf, routeOf, servicePaths } from '../../src/client/host.js';
import { apiOf } from '../../src/config/api.js';
import { checkConfig } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';

const API = apiOf(checkConfig(structuredClone(LOOKUP_SERVICE_CONFIG), 'reflist.config.json').declaration!);

test("the service's paths are each root list's file, and the folder of one with items or lists under it", () => {
  expect(servicePaths(API)).toEqual([
    '/author.json',
    '/division.json',
    '/descriptor.json',
    '/country.json',
    '/country/*',
  ]);
});

test.each([
  ['/author.json?Term=smi', 'answer'],
  ['/author.json?Page=0', 'answer'], // the client's 400
  ['/country/840/state.json', 'answer'],
  ['/nginx.conf', 'answer'], // a host file: the adapter's 404, never the file
  ['/_netlify/reflist.js', 'answer'],
  ['/author/page/2.json', 'file'],
  ['/lookup.json', 'file'],
  ['/lookup-client.js', 'file'],
  ['/demo/index.html', 'file'],
])('%s: an adapter does "%s"', (url, expected) => {
  expect(routeOf(url, API)).toBe(expected);
});

test.each(['/country%2F840/state.json', '/author%zz.json', '/a%E9.json'])(
  "%s names no file as the client reads it: the tree's own adapters answer its 404",
  (url) => {
    expect(routeOf(url, API)).toBe('file');
    expect(adapterRouteOf(url, API)).toBe('answer');
  },
);
