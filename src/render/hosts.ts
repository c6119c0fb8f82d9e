// Host configuration beside the tree: `_headers` (Netlify, Cloudflare),
// `_redirects` (Netlify), `_routes.json` and `.assetsignore` (Cloudflare) and
// `nginx.conf` (nginx.ts). Pure text from the manifest and the build's options, so the
// same sources give the same files; docs/hosts.md tells what each host
// answers. The paths written here are those of client/paths.ts (`pagePath`,
// `firstPagePaths`); test/e2e/nginx.test.ts checks that they agree by serving a
// real tree through nginx.
import { CACHE_CONTROL, HOST_FILES, MANIFEST_CACHE_CONTROL, servicePaths } from '../client/host.js';
import { groupSegment } from '../client/paths.js';
import type { Manifest } from '../client/types.js';
import { casings, nestedPaged, paged, pathPattern, rootPaged, spoken } from './host-rules.js';
import type { HostOptions } from './host-rules.js';
import { nginxConf } from './nginx.js';
import type { TreeFile } from '../tree-files.js';

export type { HostOptions };

export function* hostFiles(manifest: Manifest, options: HostOptions = {}): Generator<TreeFile> {
  yield ['_headers', headers()];
  yield ['_redirects', redirects(manifest)];
  yield ['_routes.json', routes(manifest)];
  yield ['.assetsignore', assetsIgnore()];
  yield ['nginx.conf', nginxConf(manifest, options)];
  yield ['_netlify/reflist.js', netlifyFunction(manifest)];
}

/** The Netlify edge function: the handler, routed to this tree's lists (Netlify reads `config` where it is declared). */
function netlifyFunction(manifest: Manifest): string {
  return `// reflist: the edge function answering this tree's lists (generated with the tree).
export { default } from './lib/reflist.js';
export const config = ${JSON.stringify({ path: servicePaths(manifest.api) })};
`;
}

/**
 * Cloudflare Pages sends the paths listed here to _worker.js and serves every
 * other file itself, at no invocation: the service's paths, and the host files
 * Pages would otherwise serve, which the worker answers with a 404.
 */
function routes(manifest: Manifest): string {
  return (
    JSON.stringify({ version: 1, include: [...servicePaths(manifest.api), ...HOST_FILES], exclude: [] }, null, 2) + '\n'
  );
}

/** Files Cloudflare Workers' static assets must not upload (`_headers` it reads as its own). */
function assetsIgnore(): string {
  const names = HOST_FILES.filter((f) => f !== '/_headers').map((f) => f.slice(1).replace(/\/\*$/, ''));
  return `# reflist: host files, read by a host, never served (generated with the tree).\n${names.join('\n')}\n`;
}

/**
 * Netlify applies the last matching rule's Cache-Control, Cloudflare Pages
 * joins them all with commas: lookup.json's `no-cache` wins either way. The
 * result page files could be immutable, but a joined value would hold two
 * max-ages, so only nginx.conf says so.
 */
function headers(): string {
  return `# reflist: response headers for Netlify and Cloudflare Pages (generated with the tree).
# Files keep their URLs across builds, hence the short max-age; lookup.json is
# asked again on every visit, so a new visit starts on the newest build.
/*
  Access-Control-Allow-Origin: *
  Cache-Control: ${CACHE_CONTROL}
/lookup.json
  Cache-Control: ${MANIFEST_CACHE_CONTROL}
/*.json
  Content-Type: application/json; charset=utf-8
/lookup-client.js
  Content-Type: text/javascript; charset=utf-8
`;
}

/**
 * Netlify rewrites of the legacy query URLs onto the static pages. Rules match
 * top down and a rule matches whatever other parameters come along, so the
 * requests only lookup-client.js can answer (Term, Id) come first and answer
 * 404 rather than a page that ignores them. `!` is needed because
 * `/author.json` exists (a rewrite never shadows a file otherwise).
 */
function redirects(manifest: Manifest): string {
  const lists = paged(manifest);
  const names = (role: 'page' | 'group' | 'term' | 'id') => [
    ...new Set(lists.map((l) => l.params[role]).filter((n) => n !== undefined)),
  ];
  const lines = [
    '# reflist: legacy query URLs -> static files, for Netlify (generated with the tree).',
    '# Netlify matches query parameter names case-sensitively: these rules cover',
    `# ${spoken((['page', 'group', 'term', 'id'] as const).flatMap(names).map((n) => casings(n).join('/')))}. ${spoken([...names('term'), ...names('id')])} need lookup-client.js: they answer 404.`,
    '# Cloudflare Pages cannot match query strings and skips these lines. With the edge function',
    '# (_netlify/reflist.js) none of these rules is reached: it answers every such URL first.',
  ];
  for (const file of HOST_FILES) {
    if (file !== '/_headers' && file !== '/_redirects') lines.push(`${file}  /404.html  404!`);
  }
  const rule = (from: string, params: string[], to: string, status: string) =>
    lines.push([from, ...params, to, status].join('  '));
  for (const list of rootPaged(manifest)) {
    const from = `/${list.path}.json`;
    const { page, group } = list.params;
    const segment = manifest.api.group && groupSegment(manifest.api.group);
    for (const name of [...casings(list.params.term), ...casings(list.params.id)])
      rule(from, [`${name}=:x`], '/404.html', '404!');
    for (const p of casings(page)) {
      for (const g of casings(group))
        rule(from, [`${p}=:p`, `${g}=:s`], `/${list.path}/${segment}/:s/page/:p.json`, '200!');
    }
    for (const p of casings(page)) rule(from, [`${p}=:p`], `/${list.path}/page/:p.json`, '200!');
    for (const g of casings(group)) rule(from, [`${g}=:s`], `/${list.path}/${segment}/:s.json`, '200!');
  }
  // Under a parent, a page is a file under the parent's item: past the end, or under an unknown parent, none (404).
  for (const list of nestedPaged(manifest)) {
    const path = pathPattern(manifest, list, ':');
    for (const name of [...casings(list.params.term), ...casings(list.params.id)])
      rule(`/${path}.json`, [`${name}=:x`], '/404.html', '404!');
    for (const p of casings(list.params.page)) rule(`/${path}.json`, [`${p}=:p`], `/${path}/page/:p.json`, '200!');
  }
  for (const list of manifest.api.lists.filter((l) => l.shape === 'whole')) {
    for (const name of casings(list.params.term))
      rule(`/${pathPattern(manifest, list, ':')}.json`, [`${name}=:x`], '/404.html', '404!');
  }
  return lines.join('\n') + '\n';
}
