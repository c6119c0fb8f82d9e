// lookup-sw.js in Debian's Chromium, in front of static servers that run
// nothing (python3's http.server): select2 configured the old way, with no
// reflist helper, sends the original service's URLs (`author.json?Term=…`),
// and the service worker answers them from the tree's files exactly as the
// reference does. Without the worker the same URL answers the unfiltered page.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CHROMIUM, DemoPage, launchChromium } from '../../scripts/demo-page.js';
import { adapterRouteOf } from '../../src/client/host.js';
import type { Manifest } from '../../src/client/types.js';
import { toCsvFiles } from '../arbitraries.js';
import { HOST_FIXTURE } from '../fixtures/hosts.js';
import { buildFrom, freePort, tempDir, type Running } from '../helpers.js';
import {
  arbDeclaredHostCase,
  arbHostCase,
  buildDeclaredTree,
  expectLikeDeclared,
  expectLikeReference,
  hostPropertyRuns,
  isStaticTreeFile,
  jsonOrText,
  PRESET_API,
  untilAnswers,
} from '../host-checks.js';
import { referenceRequest, type RefResponse } from '../reference.js';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`test/e2e/service-worker.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/** select2 answers after the worker has read a file or two; leave a loaded CI machine room. */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 5_000 });

// ------------------------------------------------------------ static servers

/**
 * A static host that also sends `Access-Control-Allow-Origin: *`, as GitHub
 * Pages does: a worker on another origin can read the tree only then.
 * Still http.server's SimpleHTTPRequestHandler: it runs nothing.
 */
const CORS_SERVER = `
import sys, functools, http.server
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header('Access-Control-Allow-Origin', '*')
        super().end_headers()
port, root = int(sys.argv[1]), sys.argv[2]
http.server.ThreadingHTTPServer(('127.0.0.1', port), functools.partial(Handler, directory=root)).serve_forever()
`;

interface StaticServer extends Running {
  origin: string;
  /** The paths (with their queries) of the GET requests the server saw, from its log. */
  readonly seen: string[];
}

/** python3's http.server over `dir` on a free loopback port (with CORS headers when asked), once it answers. */
async function startStatic(dir: string, { cors = false } = {}): Promise<StaticServer> {
  const port = await freePort();
  const args = cors
    ? ['-u', '-c', CORS_SERVER, String(port), dir]
    : ['-u', '-m', 'http.server', '--bind', '127.0.0.1', String(port), '--directory', dir];
  const child: ChildProcess = spawn('python3', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const seen: string[] = [];
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
    for (const m of chunk.matchAll(/"GET (\S+) HTTP\/1\.[01]"/g)) seen.push(m[1]!);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  await untilAnswers(
    `http.server on ${origin}`,
    async () => {
      await (await fetch(origin + '/')).arrayBuffer();
      return true;
    },
    { exited, output: () => log, timeoutMs: 10_000 },
  );
  return {
    origin,
    url: origin + '/',
    seen,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

// ------------------------------------------------------------ pages

const VENDOR: [string, string][] = [
  ['jquery/dist/jquery.min.js', 'jquery.min.js'],
  ['select2/dist/js/select2.min.js', 'select2.min.js'],
  ['select2/dist/css/select2.min.css', 'select2.min.css'],
];

function copyVendor(dir: string) {
  mkdirSync(join(dir, 'vendor'), { recursive: true });
  for (const [from, to] of VENDOR) copyFileSync(join('node_modules', from), join(dir, 'vendor', to));
}

const PAGE_SIZE = 10;

/**
 * A page with select2 configured the old way against `service` (the author.json
 * URL old clients use), no reflist script on it. `register` is the site's one
 * line (or none); the page only notes when the worker takes control.
 */
function oldPage(service: string, register: string | undefined): string {
  return `<!doctype html><meta charset="utf-8">
<link rel="stylesheet" href="/vendor/select2.min.css">
<script src="/vendor/jquery.min.js"></script><script src="/vendor/select2.min.js"></script>
<script>
navigator.serviceWorker.addEventListener('controllerchange', () => { window.controlledAt = performance.now(); });
${register ?? ''}
</script>
<select id="author" style="width: 400px"></select>
<select id="author-system" style="width: 400px"></select>
<script>
var PAGE_SIZE = ${PAGE_SIZE};
function ajax(data) {
  return {
    url: ${JSON.stringify(service)}, dataType: 'json', delay: 0, data: data,
    processResults: (data, params) => ({ results: data.items, pagination: { more: (params.page || 1) * PAGE_SIZE < data.total } }),
  };
}
$('#author').select2({ ajax: ajax((p) => ({ Term: p.term, Page: p.page })) });
$('#author-system').select2({
  ajax: ajax((p) => ({ Term: p.term, Page: p.page, System: 'x' })),
  templateResult: (item) => (item.count === undefined ? item.text : item.text + ' (' + item.count + ')'),
});
</script>`;
}

// ------------------------------------------------------------ the fixed tree

// The host tests' one fixture (test/fixtures/hosts.ts) at pages of 10: "smi" finds
// the 25 Smiths and Smirnov, three pages; "mül" finds Muller as well as the
// Müllers; system x counts Smirnov, a Smith (201) and a Müller (301); author
// 303 is Mühl, Zoë.

interface Item {
  id: number;
  text: string;
  count?: number;
}

const reference = (url: string): RefResponse => referenceRequest(HOST_FIXTURE, PAGE_SIZE, url);

/** The texts select2 should show for `url`: the reference's items, counts in brackets. */
function expectedTexts(url: string): string[] {
  const { status, body } = reference(url);
  expect(status).toBe(200);
  return (body as { items: Item[] }).items.map((item) =>
    item.count === undefined ? item.text : `${item.text} (${item.count})`,
  );
}

/** GETs each URL with fetch() from the page, one after another: status and body (parsed when JSON). */
async function fetchFromPage(page: Page, urls: string[]): Promise<RefResponse[]> {
  const raw = await page.evaluate(async (list) => {
    const out: { status: number; text: string }[] = [];
    for (const url of list) {
      try {
        const res = await fetch(url);
        out.push({ status: res.status, text: await res.text() });
      } catch (err) {
        out.push({ status: 0, text: String(err) });
      }
    }
    return out;
  }, urls);
  return raw.map(({ status, text }) => ({ status, body: jsonOrText(text) }));
}

/** Waits until the page is controlled by a service worker; the time it took, from the navigation's start. */
async function controlled(page: Page): Promise<number> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
  return page.evaluate(() => (window as unknown as { controlledAt?: number }).controlledAt ?? 0);
}

// ------------------------------------------------------------ the tests

describe.skipIf(!hasChromium)('lookup-sw.js in Chromium, on static servers that run nothing', () => {
  const root = tempDir('reflist-sw-');
  const tree = join(root, 'tree');
  const servers: StaticServer[] = [];
  /** The tree alone, with CORS headers (port A). */
  let treeHost: StaticServer;
  /** The site: pages, jQuery, select2 and a copy of lookup-sw.js (port B). */
  let site: StaticServer;
  /** One origin: the tree under /lookup/, pages inside it and beside it. */
  let same: StaticServer;
  /** Trees built from random sources, one folder each, with CORS headers. */
  let randomHost: StaticServer;
  const randomRoot = join(root, 'random');
  let browser: Browser;
  let context: BrowserContext;
  let pageErrors: string[];

  beforeAll(async () => {
    await buildFrom(toCsvFiles(HOST_FIXTURE), tree, PAGE_SIZE);

    const siteDir = join(root, 'site');
    copyVendor(siteDir);
    copyFileSync(join(tree, 'lookup-sw.js'), join(siteDir, 'lookup-sw.js'));

    const sameDir = join(root, 'same');
    copyVendor(sameDir);
    cpSync(tree, join(sameDir, 'lookup'), { recursive: true });
    copyFileSync(join(tree, 'lookup-sw.js'), join(sameDir, 'lookup-sw.js'));
    // Inside the tree's folder, the worker's defaults: the tree is the script's folder.
    writeFileSync(
      join(sameDir, 'lookup', 'index.html'),
      oldPage('author.json', "navigator.serviceWorker.register('lookup-sw.js');"),
    );
    // Beside a copy of lookup-sw.js at the root, the tree under /lookup/.
    writeFileSync(
      join(sameDir, 'index.html'),
      oldPage('/lookup/author.json', "navigator.serviceWorker.register('/lookup-sw.js?tree=/lookup/');"),
    );

    mkdirSync(randomRoot, { recursive: true });
    [treeHost, site, same, randomHost] = await Promise.all([
      startStatic(tree, { cors: true }),
      startStatic(siteDir),
      startStatic(sameDir),
      startStatic(randomRoot, { cors: true }),
    ]);
    servers.push(treeHost, site, same, randomHost);
    const A = treeHost.url;
    writeFileSync(
      join(siteDir, 'index.html'),
      oldPage(`${A}author.json`, `navigator.serviceWorker.register('/lookup-sw.js?tree=${A}');`),
    );
    writeFileSync(join(siteDir, 'plain.html'), oldPage(`${A}author.json`, undefined));
    // A lookup at once, from the script that registers the worker (a preselection, say).
    const early = `navigator.serviceWorker.register('/lookup-sw.js?tree=${A}');
window.early = (async (controlled) => {
  const res = await fetch('${A}author.json?Term=smi');
  return { controlled, status: res.status, body: await res.json() };
})(navigator.serviceWorker.controller !== null);`;
    writeFileSync(join(siteDir, 'early.html'), oldPage(`${A}author.json`, early));
    // The same lookup once the worker controls the page. Not navigator.serviceWorker.ready:
    // it resolves when the worker is active, before clients.claim() makes it the page's controller.
    const waits = `navigator.serviceWorker.register('/lookup-sw.js?tree=${A}');
window.early = (async () => {
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  }
  const res = await fetch('${A}author.json?Term=smi');
  return { controlled: true, status: res.status, body: await res.json() };
})();`;
    writeFileSync(join(siteDir, 'waits.html'), oldPage(`${A}author.json`, waits));
    // Where the tree lies comes from the page's address: the property test builds a tree a run.
    writeFileSync(
      join(siteDir, 'random.html'),
      oldPage(
        '/none',
        "navigator.serviceWorker.register('/lookup-sw.js?tree=' + encodeURIComponent(new URLSearchParams(location.search).get('tree')));",
      ),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
  });

  // A fresh context a test: no worker registered by an earlier test, every visit a first one.
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 960, height: 720 } });
    pageErrors = [];
  });
  afterEach(async () => {
    await context.close();
    expect(pageErrors, 'errors thrown in the page').toEqual([]);
  });

  async function open(url: string): Promise<DemoPage> {
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(url);
    return new DemoPage(page);
  }

  /** Opens `url` and waits until the worker controls the page. */
  async function openControlled(url: string): Promise<DemoPage> {
    const demo = await open(url);
    await controlled(demo.page);
    return demo;
  }

  /** Author requests the page made that carried a query: each must have been answered by the worker. */
  function watchService(demo: DemoPage): { url: string; fromWorker: boolean }[] {
    const seen: { url: string; fromWorker: boolean }[] = [];
    demo.page.on('response', (res) => {
      if (/author\.json\?/.test(res.url())) seen.push({ url: res.url(), fromWorker: res.fromServiceWorker() });
    });
    return seen;
  }

  describe('cross-origin: the tree on one http.server, the site and a copy of lookup-sw.js on another', () => {
    test.each([
      ['smi', 'a plain term'],
      ['mül', 'a term with a diacritic, folded'],
      ['Ørs', 'a letter that folds to another'],
    ])('typing "%s" shows the reference\'s page 1 for that Term, in order (%s)', async (term) => {
      const before = treeHost.seen.length;
      const demo = await openControlled(site.url);
      const responses = watchService(demo);
      const expected = expectedTexts(`/author.json?Term=${encodeURIComponent(term)}&Page=1`);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected).not.toEqual(expectedTexts('/author.json'));
      await demo.open('author');
      await demo.type(term);
      await poll(() => demo.resultTexts('author')).toEqual(expected);
      expect(responses.length).toBeGreaterThan(0);
      expect(
        responses.filter((r) => !r.fromWorker),
        'answered by the network, not the worker',
      ).toEqual([]);
      // The static server only ever saw plain file paths: the queries stayed in the browser.
      expect(treeHost.seen.slice(before).filter((path) => path.includes('?'))).toEqual([]);
    });

    test('scrolling loads page 2 and then page 3 of a term below page 1, and offers no more after the last', async () => {
      const demo = await openControlled(site.url);
      const pages = [1, 2, 3, 4].map((p) => expectedTexts(`/author.json?Term=smi&Page=${p}`));
      expect(pages.map((p) => p.length)).toEqual([10, 10, 6, 0]);
      await demo.open('author');
      await demo.type('smi');
      for (let shown = 1; shown <= 3; shown++) {
        await poll(() => demo.resultTexts('author')).toEqual(pages.slice(0, shown).flat());
        if (shown < 3) {
          expect(await demo.hasMore('author')).toBe(true);
          await demo.scrollResults('author');
        }
      }
      expect(await demo.hasMore('author')).toBe(false);
    });

    test("opening the drop-down without a term lists the reference's first page, and page 2 on scrolling", async () => {
      const demo = await openControlled(site.url);
      const page1 = expectedTexts('/author.json?Term=&Page=');
      const page2 = expectedTexts('/author.json?Page=2');
      await demo.open('author');
      await poll(() => demo.resultTexts('author')).toEqual(page1);
      await demo.scrollResults('author');
      await poll(() => demo.resultTexts('author')).toEqual([...page1, ...page2]);
    });

    test("with System in the data, the options carry that system's counts", async () => {
      const demo = await openControlled(site.url);
      for (const term of ['smi', 'mül']) {
        const expected = expectedTexts(`/author.json?Term=${encodeURIComponent(term)}&System=x`);
        expect(
          expected.some((text) => /\(\d+\)$/.test(text)),
          term,
        ).toBe(true);
        await demo.open('author-system');
        await demo.type(term);
        await poll(() => demo.resultTexts('author-system')).toEqual(expected);
        await demo.page.keyboard.press('Escape');
      }
    });

    test('an Id lookup with $.getJSON preselects the author, and Id with child and a county path answer like the reference', async () => {
      const demo = await openControlled(site.url);
      const A = treeHost.url;
      const answers = await demo.page.evaluate(async (base) => {
        interface Deferred {
          done(f: (body: unknown) => void): Deferred;
          fail(f: () => void): Deferred;
        }
        interface Selected {
          append(option: HTMLOptionElement): Selected;
          trigger(event: string): Selected;
        }
        const $ = (
          window as unknown as {
            jQuery: { getJSON(url: string, data?: object): Deferred; (selector: string): Selected };
          }
        ).jQuery;
        const get = (url: string, data?: object) =>
          new Promise(
            (resolve, reject) =>
              void $.getJSON(url, data)
                .done(resolve)
                .fail(() => reject(new Error(url))),
          );
        const author = (await get(`${base}author.json`, { Id: 303 })) as { items: { id: number; text: string }[] };
        const item = author.items[0]!;
        $('#author')
          .append(new Option(item.text, String(item.id), true, true))
          .trigger('change');
        return {
          author,
          system: await get(`${base}author.json`, { Id: 201, System: 'x' }),
          child: await get(`${base}division.json`, { Id: 10, child: true }),
          county: await get(`${base}country/840/state/06/county.json`),
          missing: await get(`${base}author.json`, { Id: 999 }),
        };
      }, A);
      expect(answers.author).toEqual(reference('/author.json?Id=303').body);
      expect(answers.system).toEqual(reference('/author.json?Id=201&System=x').body);
      expect(answers.child).toEqual(reference('/division.json?Id=10&child=true').body);
      expect(answers.county).toEqual(reference('/country/840/state/06/county.json').body);
      expect(answers.missing).toEqual(reference('/author.json?Id=999').body);
      expect(await demo.selection('author')).toEqual({ value: '303', text: 'Mühl, Zoë' });
    });

    test("errors come back as the reference's status with a JSON error, and other paths of the tree's host pass through", async () => {
      const demo = await openControlled(site.url);
      // An escaped / and a malformed escape name no file, though http.server decodes the one into a folder and refuses the other.
      const urls = [
        '/author.json?Page=0',
        '/author.json?System=nope',
        '/division.json?child=maybe',
        '/country/7.json',
        '/lookup.json',
        '/author/page/2.json',
        '/country/840%2Fstate.json',
        '/country/%zz.json',
      ];
      const answers = await fetchFromPage(
        demo.page,
        urls.map((u) => treeHost.url + u.slice(1)),
      );
      urls.forEach((url, i) => {
        if (isStaticTreeFile(tree, url)) expect({ url, status: answers[i]!.status }).toEqual({ url, status: 200 });
        else expectLikeReference(url, answers[i]!, reference(url));
      });
      expect(treeHost.seen).toContain('/author/page/2.json');
    });
  });

  describe('same origin: the tree under /lookup/ of the site', () => {
    test.each([
      ['/lookup/index.html', "inside the tree's folder, register('lookup-sw.js')"],
      ['/index.html', "beside a copy at the root, register('/lookup-sw.js?tree=/lookup/')"],
    ])("%s (%s): typing shows the reference's pages for the Term", async (path) => {
      const before = same.seen.length;
      const demo = await openControlled(same.origin + path);
      const responses = watchService(demo);
      const page1 = expectedTexts('/author.json?Term=m%C3%BCl');
      await demo.open('author');
      await demo.type('mül');
      await poll(() => demo.resultTexts('author')).toEqual(page1);
      await demo.page.keyboard.press('Escape');
      await demo.open('author');
      await demo.page.locator('.select2-container--open .select2-search__field').fill('');
      await demo.type('smi');
      await poll(() => demo.resultTexts('author')).toEqual(expectedTexts('/author.json?Term=smi'));
      await demo.scrollResults('author');
      await poll(() => demo.resultTexts('author')).toEqual(
        [1, 2].flatMap((p) => expectedTexts(`/author.json?Term=smi&Page=${p}`)),
      );
      expect(responses.length).toBeGreaterThan(0);
      expect(responses.filter((r) => !r.fromWorker)).toEqual([]);
      expect(same.seen.slice(before).filter((seen) => seen.includes('.json?'))).toEqual([]);
      const scope = await demo.page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      expect(scope).toBe(path === '/index.html' ? same.url : `${same.url}lookup/`);
    });
  });

  describe('without the worker', () => {
    test('a page that never registers it gets the unfiltered page 1 for author.json?Term=smi: what the worker fixes', async () => {
      const plain = await open(`${site.url}plain.html`);
      const url = `${treeHost.url}author.json?Term=smi`;
      const [without] = await fetchFromPage(plain.page, [url]);
      expect(await plain.page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
      expect(without).toEqual(reference('/author.json')); // the static file, whatever the Term
      const demo = await openControlled(site.url);
      const [withWorker] = await fetchFromPage(demo.page, [url]);
      expect(withWorker).toEqual(reference('/author.json?Term=smi'));
      expect(withWorker!.body).not.toEqual(without!.body);
    });

    test('on a first visit, a request sent as the page starts reaches the static server; on the next visit the worker answers it', async () => {
      const url = `${treeHost.url}author.json?Term=smi`;
      const early = async (demo: DemoPage) =>
        demo.page.evaluate(
          () => (window as unknown as { early: Promise<{ controlled: boolean; status: number; body: unknown }> }).early,
        );
      const demo = await open(`${site.url}early.html`);
      // Sent by the page's first script, next to the register line: no worker controls the page yet.
      expect(await early(demo)).toEqual({ controlled: false, ...reference('/author.json') });
      await controlled(demo.page);
      expect((await fetchFromPage(demo.page, [url]))[0]).toEqual(reference('/author.json?Term=smi'));
      await demo.page.reload();
      expect(await early(demo)).toEqual({ controlled: true, ...reference('/author.json?Term=smi') });
    });

    test("a page that waits for controllerchange before its first lookup gets the worker's answer on a first visit", async () => {
      const demo = await open(`${site.url}waits.html`);
      const early = await demo.page.evaluate(() => (window as unknown as { early: Promise<unknown> }).early);
      expect(early).toEqual({ controlled: true, ...reference('/author.json?Term=smi') });
    });

    test('a tree host without CORS headers cannot be read from another origin: the worker answers 502, never a wrong 200', async () => {
      const bare = await startStatic(tree);
      try {
        const page = await context.newPage();
        await page.goto(`${site.url}random.html?tree=${encodeURIComponent(bare.url)}`);
        await controlled(page);
        const [answer] = await fetchFromPage(page, [`${bare.url}author.json?Term=smi`]);
        expect(answer!.status).toBe(502);
        expect((answer!.body as { error: string }).error).toMatch(/could not read the tree/);
      } finally {
        await bare.stop();
      }
    });
  });

  /**
   * One page visit to the tree `name` (built at `dir`) through lookup-sw.js:
   * `urls` fetched from the page, each answer of a list path checked by
   * `check`, each other path left by the worker to the static server.
   */
  async function visit(
    name: string,
    dir: string,
    api: Manifest['api'],
    urls: string[],
    check: (url: string, actual: RefResponse) => void,
  ) {
    const base = `${randomHost.url}${name}/`;
    // A context a run: a worker registered for the previous run's tree would answer this page at once.
    const runContext = await browser.newContext();
    const page = await runContext.newPage();
    try {
      await page.goto(`${site.url}random.html?tree=${encodeURIComponent(base)}`);
      await controlled(page);
      const answers = await fetchFromPage(
        page,
        urls.map((u) => base + u.slice(1)),
      );
      for (const [i, url] of urls.entries()) {
        const actual = answers[i]!;
        if (adapterRouteOf(url, api) === 'file') {
          const direct = await fetch(base + url.slice(1));
          await direct.arrayBuffer();
          expect({ url, status: actual.status }).toEqual({
            url,
            status: isStaticTreeFile(dir, url, api) ? 200 : direct.status,
          });
        } else check(url, actual);
      }
    } finally {
      await runContext.close();
    }
  }
  test("fetch() from a controlled page answers random requests like the reference, and the tree's own files from the network", async () => {
    let sample = 0;
    const arbCase = arbHostCase({ minLength: 20, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ src, pageSize, urls }) => {
        const name = `s${sample++}`;
        const dir = join(randomRoot, name);
        await buildFrom(toCsvFiles(src), dir, pageSize);
        await visit(name, dir, PRESET_API, urls, (url, actual) =>
          expectLikeReference(url, actual, referenceRequest(src, pageSize, url)),
        );
      }),
      // Each run is a browser visit: report the first failing case as found, unshrunk.
      { numRuns: Math.max(2, hostPropertyRuns(10)), endOnFailure: true },
    );
  }, 60_000);

  test('over random declarations, fetch() from a page lookup-sw.js controls answers like the generic reference', async () => {
    let sample = 0;
    await fc.assert(
      fc.asyncProperty(arbDeclaredHostCase(), async ({ declared, urls }) => {
        const name = `d${sample++}`;
        const built = await buildDeclaredTree(declared, join(randomRoot, name));
        if (!built) return;
        const { tree: dir, api, reference: declaredReference } = built;
        await visit(name, dir, api, urls, (url, actual) => expectLikeDeclared(url, actual, declaredReference(url)));
      }),
      // As above: a visit a run, the first failing case reported as found.
      { numRuns: Math.max(2, hostPropertyRuns(10)), endOnFailure: true },
    );
  }, 120_000);
});
