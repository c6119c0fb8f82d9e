// The host files beside the tree, as text (nginx.test.ts serves nginx.conf for real).
import { describe, expect, test } from 'vitest';
import { firstPagePaths, pagePath } from '../../src/client/paths.js';
import { FORMAT, type Manifest } from '../../src/client/types.js';
import { PRESET_API } from '../host-checks.js';
import { hostFiles } from '../../src/render/hosts.js';
import { apiOf } from '../../src/config/api.js';
import { checkConfig } from '../../src/config/declaration.js';
import { NESTED_CONFIG } from '../fixtures/cities.js';

const info = (total: number) => ({
  layout: '0123456789abcdef',
  total,
  pages: Math.max(1, Math.ceil(total / 30)),
  buckets: 1,
  search: [],
});
const MANIFEST: Manifest = {
  format: FORMAT,
  pageSize: 30,
  systems: [
    { id: 'gbif', text: 'GBIF' },
    { id: 'col-2', text: 'CoL' },
  ],
  lists: { author: info(65), division: { ...info(2), childBuckets: 1 }, descriptor: info(0), country: { total: 2 } },
  api: PRESET_API,
};
const PAGED_LISTS = ['author', 'division', 'descriptor'] as const;
const files = new Map(hostFiles(MANIFEST));
const rules = files
  .get('_redirects')!
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => l.split(/\s+/));

describe('host files', () => {
  test("are _headers, _redirects, _routes.json, .assetsignore, nginx.conf and the edge function's routes, the same for the same manifest", () => {
    expect([...files.keys()]).toEqual([
      '_headers',
      '_redirects',
      '_routes.json',
      '.assetsignore',
      'nginx.conf',
      '_netlify/reflist.js',
    ]);
    expect(new Map(hostFiles(structuredClone(MANIFEST)))).toEqual(files);
  });

  test('_routes.json sends Cloudflare Pages the service paths and the private host files, and no list folder', () => {
    const routes = JSON.parse(files.get('_routes.json')!) as { version: number; include: string[]; exclude: string[] };
    expect(routes.version).toBe(1);
    expect(routes.include).toEqual(
      expect.arrayContaining(['/author.json', '/country.json', '/country/*', '/nginx.conf', '/_netlify/*']),
    );
    expect(routes.include.length + routes.exclude.length).toBeLessThanOrEqual(100); // Cloudflare's limit
    expect(routes.include.filter((r) => /^\/(author|division|descriptor)\//.test(r))).toEqual([]);
  });

  test('.assetsignore keeps the host files out of Workers static assets, but not _headers, which Workers read', () => {
    const names = files
      .get('.assetsignore')!
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(names).toEqual(
      expect.arrayContaining(['_worker.js', '_routes.json', 'nginx.conf', '_netlify', '.assetsignore']),
    );
    expect(names).not.toContain('_headers');
  });

  test('_headers gives every file CORS and a short Cache-Control, and JSON its content type', () => {
    expect(files.get('_headers')).toMatch(
      /^\/\*\n {2}Access-Control-Allow-Origin: \*\n {2}Cache-Control: public, max-age=300\b/m,
    );
    expect(files.get('_headers')).toMatch(/^\/\*\.json\n {2}Content-Type: application\/json; charset=utf-8$/m);
  });

  test('every _redirects rule matches query parameters or answers 404!, so Cloudflare Pages (source, destination, 3xx or 200) skips it', () => {
    for (const rule of rules) expect(rule.length >= 4 || rule.at(-1) === '404!', rule.join(' ')).toBe(true);
  });

  test('_redirects hides the host files Netlify would serve', () => {
    const hidden = rules.filter((r) => r.length === 3).map((r) => r[0]);
    expect(hidden).toEqual(['/_worker.js', '/_routes.json', '/.assetsignore', '/nginx.conf', '/_netlify/*']);
  });

  test.each(PAGED_LISTS)('_redirects answers Term and Id of %s before any page rule, in both casings', (list) => {
    const mine = rules.filter((r) => r[0] === `/${list}.json`);
    const firstPage = mine.findIndex((r) => r.at(-1) === '200!');
    const guards = mine.slice(0, firstPage).map((r) => r.slice(1).join(' '));
    expect(guards).toEqual([
      'term=:x /404.html 404!',
      'Term=:x /404.html 404!',
      'id=:x /404.html 404!',
      'Id=:x /404.html 404!',
    ]);
    expect(mine.slice(firstPage).every((r) => r.at(-1) === '200!')).toBe(true);
  });

  test('_redirects rewrites Page and System, in both casings, onto the tree page paths', () => {
    const target = (params: string) =>
      rules.find((r) => r[0] === '/author.json' && r.slice(1, -2).join(' ') === params)?.at(-2);
    const fill = (path: string | undefined) => path?.replace(':p', '7').replace(':s', 'gbif');
    for (const [page, system] of [
      ['page', 'system'],
      ['Page', 'System'],
      ['page', 'System'],
      ['Page', 'system'],
    ]) {
      expect(fill(target(`${page}=:p ${system}=:s`))).toBe('/' + pagePath('author', 7, 'system/gbif'));
      expect(fill(target(`${page}=:p`))).toBe('/' + pagePath('author', 7));
      expect(fill(target(`${system}=:s`))).toBe('/' + firstPagePaths('author', 'system/gbif')[0]);
    }
    expect(rules.some((r) => r[0] === '/descriptor.json' && /system/i.test(r[1]!))).toBe(false);
  });

  test('nginx.conf knows the systems and the list totals for pages past the end', () => {
    const conf = files.get('nginx.conf')!;
    expect(conf).toContain('if ($arg_system !~ "^(gbif|col-2)?$")');
    expect(conf).toMatch(/location @reflist_author_past_end \{\n {4}return 200 '\{"total":65,"items":\[\]\}';/);
    expect(conf).not.toMatch(/^\s*(listen|root|server)\b/m);
  });
});

describe('host files of a paged list under a parent', () => {
  const api = apiOf(checkConfig(NESTED_CONFIG, 'x').declaration!);
  const nested: Manifest = { format: FORMAT, pageSize: 2, systems: [], lists: { country: { total: 12 } }, api };
  const hosts = new Map(hostFiles(nested));
  const lines = hosts
    .get('_redirects')!
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split(/\s+/).join(' '));

  test("_redirects answers Term and Id under any parent with a 404, then rewrites Page onto the parent's page files", () => {
    expect(lines.filter((l) => l.startsWith('/country/:c/city.json '))).toEqual([
      '/country/:c/city.json term=:x /404.html 404!',
      '/country/:c/city.json Term=:x /404.html 404!',
      '/country/:c/city.json id=:x /404.html 404!',
      '/country/:c/city.json Id=:x /404.html 404!',
      '/country/:c/city.json page=:p /country/:c/city/page/:p.json 200!',
      '/country/:c/city.json Page=:p /country/:c/city/page/:p.json 200!',
    ]);
    expect(lines.filter((l) => l.includes('town') && l.endsWith('200!'))).toEqual([
      '/country/:c/region/:d/town.json p=:p /country/:c/region/:d/town/page/:p.json 200!',
    ]);
    // No rule of a list at the tree's root: /city.json is no path of this tree.
    expect(lines.filter((l) => l.startsWith('/city.json') || l.startsWith('/town.json'))).toEqual([]);
  });

  test("nginx.conf reads each parent's page files, and its Term index's result pages are immutable", () => {
    const conf = hosts.get('nginx.conf')!;
    expect(conf).toContain('location ~ "^(?<reflist_under_0>/country/[A-Za-z0-9_-]+/city)\\.json$" {');
    expect(conf).toContain('try_files $reflist_under_0/page/$reflist_page_page.json @reflist_city_past_end;');
    expect(conf).toContain('try_files $reflist_under_2/page/$reflist_page_p.json @reflist_town_past_end;');
    expect(conf).toContain('location ~ "^/(country/~city|country/~big|country/~region~town)/pages/" {');
    expect(conf).not.toContain('location = /city.json');
  });

  test('_routes.json and the edge function route every path under the root list to the adapter', () => {
    expect((JSON.parse(hosts.get('_routes.json')!) as { include: string[] }).include).toEqual(
      expect.arrayContaining(['/country.json', '/country/*']),
    );
  });
});
