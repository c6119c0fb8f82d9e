// The host files beside the tree, as text (nginx.test.ts serves nginx.conf for real).
import { describe, expect, test } from 'vitest';
import { firstPagePaths, pagePath } from '../src/client/paths.js';
import { FORMAT, PAGED_LISTS, type Manifest } from '../src/client/types.js';
import { hostFiles } from '../src/hosts.js';

const info = (total: number) => ({ total, pages: Math.max(1, Math.ceil(total / 30)), buckets: 1, search: [] });
const MANIFEST: Manifest = {
  format: FORMAT,
  pageSize: 30,
  systems: [{ id: 'gbif', text: 'GBIF' }, { id: 'col-2', text: 'CoL' }],
  lists: { author: info(65), division: { ...info(2), childBuckets: 1 }, descriptor: info(0), country: { total: 2 } },
};
const files = new Map(hostFiles(MANIFEST));
const rules = files.get('_redirects')!.split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.split(/\s+/));

describe('host files', () => {
  test('are _headers, _redirects and nginx.conf, the same for the same manifest', () => {
    expect([...files.keys()]).toEqual(['_headers', '_redirects', 'nginx.conf']);
    expect(new Map(hostFiles(structuredClone(MANIFEST)))).toEqual(files);
  });

  test('_headers gives every file CORS and a short Cache-Control, and JSON its content type', () => {
    expect(files.get('_headers')).toMatch(/^\/\*\n {2}Access-Control-Allow-Origin: \*\n {2}Cache-Control: public, max-age=300\b/m);
    expect(files.get('_headers')).toMatch(/^\/\*\.json\n {2}Content-Type: application\/json; charset=utf-8$/m);
  });

  test('every _redirects rule matches query parameters, so Cloudflare Pages (source, destination, code) skips it', () => {
    for (const rule of rules) expect(rule.length).toBeGreaterThanOrEqual(4);
  });

  test.each(PAGED_LISTS)('_redirects answers Term and Id of %s before any page rule, in both casings', (list) => {
    const mine = rules.filter((r) => r[0] === `/${list}.json`);
    const firstPage = mine.findIndex((r) => r.at(-1) === '200!');
    const guards = mine.slice(0, firstPage).map((r) => r.slice(1).join(' '));
    expect(guards).toEqual(['term=:x /404.html 404!', 'Term=:x /404.html 404!', 'id=:x /404.html 404!', 'Id=:x /404.html 404!']);
    expect(mine.slice(firstPage).every((r) => r.at(-1) === '200!')).toBe(true);
  });

  test('_redirects rewrites Page and System, in both casings, onto the tree page paths', () => {
    const target = (params: string) => rules.find((r) => r[0] === '/author.json' && r.slice(1, -2).join(' ') === params)?.at(-2);
    const fill = (path: string | undefined) => path?.replace(':p', '7').replace(':s', 'gbif');
    for (const [page, system] of [['page', 'system'], ['Page', 'System'], ['page', 'System'], ['Page', 'system']]) {
      expect(fill(target(`${page}=:p ${system}=:s`))).toBe('/' + pagePath('author', 7, 'gbif'));
      expect(fill(target(`${page}=:p`))).toBe('/' + pagePath('author', 7));
      expect(fill(target(`${system}=:s`))).toBe('/' + firstPagePaths('author', 'gbif')[0]);
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
