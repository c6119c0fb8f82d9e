// The checks every host test makes against the reference: a host (nginx,
// Cloudflare's workerd, Netlify's edge function in Deno, lookup-sw.js in a
// browser) answers a request of the original service as the reference does;
// random sources and requests to try it on, how many cases, and the property
// test that builds a tree a case and starts a host over it; reading a host's
// answer as JSON. What differs from host to host (which paths are the host's
// own files, how an answer is fetched, what a host's answer must add) stays in
// that host's test. The same for random declarations (test/declarations.ts):
// a declared case built for real, and an answer checked against the generic
// reference (test/reference-declared.ts). And how a request reaches a host as
// written (fetchRaw), raw UTF-8 and `%2F` as curl sends them.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { expect, vi } from 'vitest';
import { buildTuned } from '../src/build.js';
import { parseRequest } from '../src/client/request.js';
import type { Manifest } from '../src/client/types.js';
import type { HostOptions } from '../src/render/hosts.js';
import { apiOf } from '../src/config/api.js';
import { checkConfig } from '../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { arbPageSize, arbRequest, arbSources, toCsvFiles } from './arbitraries.js';
import { arbDeclared, arbDeclaredRequest, searchSweep, type Declared } from './declarations.js';
import { buildFrom, tempDir, writeSources } from './helpers.js';
import { createDeclaredReference, type DeclaredResponse } from './reference-declared.js';
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
 * The path of the file `url` names, as a static host reads it and the tree's
 * hosts serve it: each segment percent-decoded on its own. Undefined where it
 * names none: a malformed escape, or an escaped `/` (docs/hosts.md: the
 * tree's hosts answer it 404, though a plain static host would decode it
 * into a folder).
 */
export function filePathOf(url: string): string | undefined {
  // Not splitUrl: new URL() would read `//author.json` as a host name.
  const segments = url
    .replace(/[?#].*$/s, '')
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return '/';
      }
    });
  return segments.some((segment) => segment.includes('/')) ? undefined : segments.join('/');
}

/**
 * Whether `url` is no path of the service (of the lists `api` states: the
 * lookup service's unless told) but a file of the tree under `root`, which a
 * plain static host (nginx, python3's http.server) serves, `//` merged into
 * `/` as they do.
 */
export function isStaticTreeFile(root: string, url: string, api: Manifest['api'] = PRESET_API): boolean {
  return staticTreeFile(root, url, api) !== undefined;
}

/** The file isStaticTreeFile finds, or undefined. */
export function staticTreeFile(root: string, url: string, api: Manifest['api'] = PRESET_API): string | undefined {
  const route = parseRequest(url, api);
  const path = filePathOf(url);
  if (!('status' in route && route.status === 404) || path === undefined) return undefined;
  const file = join(root, path.replace(/\/{2,}/g, '/'));
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

/** Random sources, a page size, and requests of the original service over them. */
export interface HostCase {
  src: RefSources;
  pageSize: number;
  urls: string[];
}

/** Random sources and page size with `requests` (30 to 60 unless told) random requests over them, for one host over one tree. */
export function arbHostCase(
  requests: { minLength: number; maxLength: number } = { minLength: 30, maxLength: 60 },
): fc.Arbitrary<HostCase> {
  return arbSources().chain((src) =>
    arbPageSize.chain((pageSize) =>
      fc.record({
        src: fc.constant(src),
        pageSize: fc.constant(pageSize),
        urls: fc.array(arbRequest(src, pageSize), requests),
      }),
    ),
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
export async function assertHostOnRandomCases<Host extends { stop(): Promise<void> }>(
  spec: HostOnRandomCases<Host>,
): Promise<void> {
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

/**
 * Waits until the server of a process a test started answers: until
 * `answers()` resolves true (a refused connection or any other throw is "not
 * yet"). The servers print no line to wait for, so this polls the condition
 * itself (vi.waitFor, every 50 ms), not a sleep between tries: it resolves on
 * the first answer, fails at once with the process's `output()` when the
 * process exits first (`exited` resolves), and after `timeoutMs` otherwise.
 */
export async function untilAnswers(
  what: string,
  answers: () => Promise<boolean>,
  { exited, output, timeoutMs = 15_000 }: { exited: Promise<unknown>; output: () => string; timeoutMs?: number },
): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  let state: 'up' | 'exited';
  try {
    state = await vi.waitFor(
      async () => {
        if (gone) return 'exited' as const;
        if (!(await answers())) throw new Error(`${what} does not answer yet`);
        return 'up' as const;
      },
      { timeout: timeoutMs, interval: 50 },
    );
  } catch (error) {
    throw new Error(`${what} did not answer within ${timeoutMs} ms: ${output()}`, { cause: error });
  }
  if (state === 'exited') throw new Error(`${what} exited before it answered: ${output()}`);
}

/**
 * `url` (a path with its query, starting with `/`) from the host at `base`
 * (ending with `/`), sent as written, as curl sends it: a raw `é` as its
 * UTF-8 bytes, `%2F` and `..` as they are (fetch() would escape the one and
 * resolve the other), but for the spaces and control characters no request
 * line can hold. Over a connection of its own, closed after the answer.
 */
export function fetchRaw(base: string, url: string, init: { method?: string } = {}): Promise<HostAnswer> {
  const { hostname, port, pathname } = new URL(base);
  const path = requestTarget(pathname.slice(0, -1) + url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path, method: init.method ?? 'GET', agent: false, timeout: 20_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: res.statusCode!, body: jsonOrText(text), text, headers });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${url} in 20 s`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * `url` as node:http sends it as written (fetchRaw): each byte of its UTF-8
 * as one latin1 character, which Node sends as that byte, and the spaces and
 * control characters no request line can hold escaped.
 */
export function requestTarget(url: string): string {
  return Buffer.from(url, 'utf8')
    .toString('latin1')
    .replace(/[\0-\x20\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `request`'s bytes sent to the host at `base` as they are, on a connection of their own: all the host answers, until it closes. */
export function exchangeBytes(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket
      .setEncoding('utf8')
      .on('data', (chunk: string) => (answer += chunk))
      .on('end', () => resolve(answer))
      .on('error', reject);
  });
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

// ---------------------------------------------------------------- declared lists

/** A random declaration with random requests over its declared paths, for one host over one tree. */
export interface DeclaredHostCase {
  declared: Declared;
  urls: string[];
}

/**
 * A random declaration (arbDeclared()) with `requests` (20 to 40 unless told)
 * random requests over it (arbDeclaredRequest), then its searchSweep: Terms
 * that meet what its lists declare of their ranking. Not fc.array(arbDeclaredRequest(…)):
 * fc.gen() draws from a copy of the random stream and never moves the stream
 * itself on, so every element of such an array is one and the same URL (and an
 * arbitrary chained after arbDeclared() starts where the declaration's draws
 * did). The case draws a seed and a count first instead, and each request is
 * one run of fc.sample from that seed.
 */
export function arbDeclaredHostCase(
  requests: { minLength: number; maxLength: number } = { minLength: 20, maxLength: 40 },
): fc.Arbitrary<DeclaredHostCase> {
  return fc
    .tuple(fc.integer(), fc.integer({ min: requests.minLength, max: requests.maxLength }), arbDeclared())
    .map(([seed, count, declared]) => ({
      declared,
      urls: [...fc.sample(arbDeclaredRequest(declared), { seed, numRuns: count }), ...searchSweep(declared)],
    }));
}

/**
 * Search files this small split even a random declaration's few labels into
 * many leaves and files, and a list of more than 4 files is listed in two
 * levels (its heads' files hold their directories). The words rule's sizes
 * likewise: a large prefix is pooled only while its matches' records take 400
 * bytes (a few items), else answered from record blocks of 200 bytes through
 * its skip file; pool files are cut at 150 bytes and the typo vocabulary's
 * buckets at 40. Measured on 120 random declarations: pool files in about
 * one tree in ten, skip files in one in eight, record blocks in one in seven,
 * a typo vocabulary in one in three.
 */
export const SMALL_SEARCH = {
  leafBytes: 60,
  fileBytes: 100,
  pagesBytes: 200,
  directoryStarts: 4,
  poolBytes: 400,
  poolFileBytes: 150,
  blockBytes: 200,
  vocabBytes: 40,
} as const;

/** How long a declared case's build may take: a tiny tree builds in a second or two. */
const BUILD_LIMIT_MS = 60_000;

/**
 * `building`, or a rejection when it neither resolves nor rejects in
 * BUILD_LIMIT_MS: a build that never settles (a render error the writer thread
 * never hears of) fails its case with a message, not the whole property test
 * at its timeout minutes later.
 */
function settles<T>(building: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the build neither finished nor failed in ${BUILD_LIMIT_MS / 1000} s`)),
      BUILD_LIMIT_MS,
    );
  });
  return Promise.race([building, limit]).finally(() => clearTimeout(timer));
}

/** A declared case built: the tree, the lists its lookup.json states (what the adapters route by), and the reference over the case. */
export interface DeclaredTree {
  tree: string;
  api: Manifest['api'];
  reference: (url: string) => DeclaredResponse;
}

/**
 * Builds a declared case into `out`, as a user would: its reflist.config.json
 * beside its sources in a folder of their own, at the case's page size, with
 * SMALL_SEARCH (its wide pools as the case says) and the host `options`. A
 * declaration whose sources are all absent is refused, never built empty:
 * undefined then, once the refusal is checked.
 */
export async function buildDeclaredTree(
  declared: Declared,
  out: string,
  options: HostOptions = {},
): Promise<DeclaredTree | undefined> {
  const sources = writeSources(tempDir('reflist-src-'), declared.files);
  writeFileSync(join(sources, 'reflist.config.json'), JSON.stringify(declared.config));
  const search = { ...SMALL_SEARCH, wideBytes: declared.wideBytes };
  const building = settles(
    buildTuned({ sources, out, pageSize: declared.pageSize, search, spill: declared.spill, ...options }),
  );
  if (Object.keys(declared.files).length === 0) {
    await expect(building).rejects.toThrow(/none of its sources is in/);
    return undefined;
  }
  await building;
  const { api } = JSON.parse(readFileSync(join(out, 'lookup.json'), 'utf8')) as Manifest;
  const reference = createDeclaredReference(
    checkConfig(declared.config, 'x').declaration!,
    declared.files,
    declared.pageSize,
  );
  return { tree: out, api, reference };
}

/**
 * That `actual` answers `url` as the generic reference's `expected` does: a
 * 200 with the same status and body, keys in the same order (the JSON texts
 * of the bodies are equal); an error with the same status and a JSON body
 * whose `error` is a string (the message is the host's own).
 */
export function expectLikeDeclared(
  url: string,
  actual: { status: number; body: unknown },
  expected: DeclaredResponse,
): void {
  if (expected.status === 200) {
    expect({ url, status: actual.status, body: actual.body }).toEqual({ url, status: 200, body: expected.body });
    expect(JSON.stringify(actual.body), `${url}: key order`).toBe(JSON.stringify(expected.body));
  } else {
    expect({ url, status: actual.status }).toEqual({ url, status: expected.status });
    expect(typeof (actual.body as { error?: unknown } | null | undefined)?.error, url).toBe('string');
  }
}

/** Something started before a case's build, which the build names (nginx's upstream), and what the build then takes. */
export interface BeforeBuild {
  options: HostOptions;
  stop(): Promise<void>;
}

/** A host property test over random declarations: as HostOnRandomCases, a case being a declaration built for real. */
export interface HostOnDeclaredCases<Host extends { stop(): Promise<void> }> {
  /** The folder for the cases' trees: each case gets a folder of its own under it. */
  root: string;
  /** Where in its case's folder the tree goes: the folder itself unless told. */
  treeIn?: (dir: string) => string;
  /** Starts what the build must name, over the tree about to be built; stopped after the host. */
  beforeBuild?(tree: string): Promise<BeforeBuild>;
  /** Starts a host over `tree`, by then built from the case's declaration. */
  start(tree: string): Promise<Host>;
  /** Asks the host the case's requests and checks the answers. */
  check(host: Host, urls: string[], built: DeclaredTree): Promise<void>;
  /** How many cases: hostPropertyRuns() unless told. */
  numRuns?: number;
}

/**
 * The host property test over random declarations: for hostPropertyRuns()
 * random cases (arbDeclaredHostCase()), the declaration is built in a folder
 * of its own (a case the builder refuses ends there), a host started over the
 * tree, `check` run against it, and the host stopped whether or not it passed.
 * The first failing case is reported as found: a case drawn with fc.gen()
 * shrinks for ever.
 */
export async function assertHostOnDeclaredCases<Host extends { stop(): Promise<void> }>(
  spec: HostOnDeclaredCases<Host>,
): Promise<void> {
  let sample = 0;
  await fc.assert(
    fc.asyncProperty(arbDeclaredHostCase(), async ({ declared, urls }) => {
      const dir = join(spec.root, `d${sample++}`);
      const tree = spec.treeIn?.(dir) ?? dir;
      mkdirSync(dirname(tree), { recursive: true });
      const before = await spec.beforeBuild?.(tree);
      try {
        const built = await buildDeclaredTree(declared, tree, before?.options);
        if (!built) return;
        const host = await spec.start(tree);
        try {
          await spec.check(host, urls, built);
        } finally {
          await host.stop();
        }
      } finally {
        await before?.stop();
      }
    }),
    { numRuns: spec.numRuns ?? hostPropertyRuns(), endOnFailure: true },
  );
}
