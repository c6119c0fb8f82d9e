// The checks every host test makes against the reference: a host (nginx,
// Cloudflare's workerd, Netlify's edge function in Deno, lookup-sw.js in a
// browser) answers a request of the original service as the reference does;
// random sources and requests to try it on, how many cases, and the property
// test that builds a tree a case and starts a host over it; reading a host's
// answer as JSON. What differs from host to host (which paths are the host's
// own files, how an answer is fetched, what a host's answer must add) stays in
// that host's test.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { parseRequest } from '../src/client/request.js';
import { apiOf } from '../src/config/api.js';
import { checkConfig } from '../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { arbPageSize, arbRequest, arbSources, toCsvFiles } from './arbitraries.js';
import { buildFrom } from './helpers.js';
import type { RefResponse, RefSources } from './reference.js';

/** The lookup service's lists as lookup.json states them: what the adapters route by. */
export const PRESET_API = apiOf(checkConfig(LOOKUP_SERVICE_CONFIG, 'preset').declaration!);

/**
 * That `actual` answers `url` as the reference's `expected` does: a 200 with
 * the same status and body, an error with the same status and a JSON body
 * whose `error` is a string (the message is the host's own).
 */
export function expectLikeReference(url: string, actual: RefResponse, expected: RefResponse): void {
  if (expected.status === 200) expect({ url, status: actual.status, body: actual.body }).toEqual({ url, ...expected });
  else {
    expect({ url, status: actual.status }).toEqual({ url, status: expected.status });
    expect(typeof (actual.body as { error?: unknown } | null | undefined)?.error, url).toBe('string');
  }
}

/**
 * Whether `url` is no path of the service but a file of the tree under `root`,
 * which a plain static host (nginx, python3's http.server) serves, `//` merged
 * into `/` as they do.
 */
export function isStaticTreeFile(root: string, url: string): boolean {
  const route = parseRequest(url, PRESET_API);
  if (!('status' in route && route.status === 404)) return false;
  // Not splitUrl: new URL() would read `//author.json` as a host name.
  const file = join(root, decodeURIComponent(url.replace(/[?#].*$/s, '')).replace(/\/{2,}/g, '/'));
  return existsSync(file) && statSync(file).isFile();
}

/** Random sources, a page size, and requests of the original service over them. */
export interface HostCase {
  src: RefSources;
  pageSize: number;
  urls: string[];
}

/** Random sources and page size with `requests` (30 to 60 unless told) random requests over them, for one host over one tree. */
export function arbHostCase(requests: { minLength: number; maxLength: number } = { minLength: 30, maxLength: 60 }): fc.Arbitrary<HostCase> {
  return arbSources().chain((src) =>
    arbPageSize.chain((pageSize) => fc.record({ src: fc.constant(src), pageSize: fc.constant(pageSize), urls: fc.array(arbRequest(src, pageSize), requests) })),
  );
}

/** A host property test: the host, how it starts over a tree, and what it is asked. */
export interface HostOnRandomCases<Host extends { stop(): Promise<void> }> {
  /** The folder for the cases' trees: each case gets a folder of its own under it. */
  root: string;
  /** Where in its case's folder the tree goes: the folder itself unless told. */
  treeIn?: (dir: string) => string;
  /** Starts a host over `tree`, by then built from the case's sources (at the case's page size), unless `buildsTree`. */
  start(tree: string, hostCase: HostCase): Promise<Host>;
  /** `start` builds the tree itself, as a build that must name the host's own address does. */
  buildsTree?: boolean;
  /** Asks the host the case's requests and checks the answers. */
  check(host: Host, hostCase: HostCase, tree: string): Promise<void>;
}

/**
 * The host property test: for hostPropertyRuns() random cases (arbHostCase()),
 * the case's tree is built in a folder of its own, a host started over it,
 * `check` run against it, and the host stopped whether or not it passed.
 */
export async function assertHostOnRandomCases<Host extends { stop(): Promise<void> }>(spec: HostOnRandomCases<Host>): Promise<void> {
  let sample = 0;
  await fc.assert(
    fc.asyncProperty(arbHostCase(), async (hostCase) => {
      const dir = join(spec.root, `s${sample++}`);
      const tree = spec.treeIn?.(dir) ?? dir;
      mkdirSync(dirname(tree), { recursive: true });
      if (!spec.buildsTree) await buildFrom(toCsvFiles(hostCase.src), tree, hostCase.pageSize);
      const host = await spec.start(tree, hostCase);
      try {
        await spec.check(host, hostCase, tree);
      } finally {
        await host.stop();
      }
    }),
    { numRuns: hostPropertyRuns() },
  );
}

/**
 * How many random cases a host property test runs: PROPERTY_RUNS (60 unless
 * set) divided by `divisor`, rounded up, since every case builds a tree and
 * starts a host.
 */
export function hostPropertyRuns(divisor = 4): number {
  return Math.ceil(Number(process.env['PROPERTY_RUNS'] ?? 60) / divisor);
}

/** A host's answer: status, the body as JSON where it parses (else the text), the text, the headers. */
export interface HostAnswer extends RefResponse {
  text: string;
  headers: Headers;
}

/** `text` as JSON, or the text itself where it is not JSON: the expectation says what was wanted. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `url` (a path with its query, starting with `/`) from the host at `base` (ending with `/`), with fetch(). */
export async function fetchAnswer(base: string, url: string, init?: RequestInit): Promise<HostAnswer> {
  const res = await fetch(base + url.slice(1), init);
  const text = await res.text();
  return { status: res.status, body: jsonOrText(text), text, headers: res.headers };
}

/**
 * Requests every host must answer like the reference, over any fixture with
 * the systems gbif and col-2: paging, parameter casing and order, and the
 * 400s and 404s. Each host's test adds the rows its fixture and its host
 * call for (Terms, Ids, what a host answers itself).
 */
export const PARAMETER_URLS: [url: string, what: string][] = [
  ['/author.json?Page=2', 'a page by the original casing'],
  ['/author.json?page=2', 'a page by select2 casing'],
  ['/author.json?PAGE=3', 'any casing of the name'],
  ['/author.json?Page=03', 'a page number with leading zeros'],
  ['/author.json?System=gbif', 'a system, page 1'],
  ['/author.json?page=2&system=gbif', 'a system page, lower case'],
  ['/author.json?System=col-2&Page=3', 'a system page, parameters in any order'],
  ['/author.json?Page=99999999999999999999&System=gbif', 'a huge page past the end'],
  ['/author.json?Page=&page=2', 'the first occurrence wins, and empty counts as absent'],
  ['/author.json?q=au&_type=query', 'select2 parameters ignored'],
  ['/author.json?Page=x', 'a non-integer Page: 400'],
  ['/author.json?Page=0', 'Page 0: 400'],
  ['/author.json?Page=1.5&System=nope', 'Page is checked before System: 400'],
  ['/author.json?System=nope', 'an unknown System: 404'],
  ['/author.json?System=GBIF', 'System ids match case-sensitively: 404'],
  ['/author.json?Id=x1', 'an Id that is not digits: 400'],
  ['/division.json?Page=1&System=col-2', 'divisions with children and counts'],
  ['/division.json?child=maybe', 'a bad child: 400'],
  ['/division.json?child=TRUE', 'child without Id: no effect'],
  ['/descriptor.json?page=2&System=nope', 'System ignored on descriptor'],
];
