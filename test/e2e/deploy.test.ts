// A deploy while a page is open (docs/tree.md, Across a deploy): one
// long-lived client over a real static server whose tree is replaced under
// it, every answer before and after compared with the references of both
// builds. None may be neither's, none may fail because of the deploy.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM, DemoPage, launchChromium } from '../../scripts/demo-page.js';
import { assemblePreview, servePreview, waitForServer } from '../../scripts/preview.js';
import { mulberry32 } from '../../scripts/sources/prng.js';
import { createLookupClient } from '../../src/client/client.js';
import { arbPageSize, arbRequest, arbSources, toCsvFiles } from '../arbitraries.js';
import { deployRun, randomRequest, sourcesA, sourcesB, type HostKind } from '../deploy.js';
import { buildFrom, freePort, startServe, tempDir } from '../helpers.js';
import { referenceRequest, type RefSources } from '../reference.js';

const HOSTS: HostKind[] = ['swap', 'cached-manifest', 'overlay', 'stale-edge'];
const client = async (baseUrl: string, fetch: (url: string) => Promise<Response>) =>
  createLookupClient({ baseUrl, fetch });
// Small search files, so that the index has many files whose routes a deploy moves.
const SMALL = { leafBytes: 300, fileBytes: 600, pagesBytes: 1200 };

describe('a page left open across a deploy', () => {
  // 400 authors become about 900: every list crosses a threshold (more id buckets, other search files).
  const a = sourcesA(3, { authors: 400, descriptors: 60, divisions: 8, categories: 30 });
  const b = sourcesB(a, 3, 7 / 3);

  test.each(HOSTS)(
    "%s: every answer is build A's or build B's, none fails, and the deploy costs at most two reads of lookup.json",
    async (host) => {
      const rnd = mulberry32(11);
      const run = await deployRun({
        a,
        b,
        pageSize: 10,
        search: SMALL,
        host,
        seed: 5,
        dir: tempDir('reflist-deploy-'),
        client,
        serve: startServe,
        before: Array.from({ length: 20 }, () => randomRequest(rnd, a, b, 10)),
        after: Array.from({ length: 300 }, () => randomRequest(rnd, a, b, 10)),
      });
      expect({ before: run.before.bad, after: run.after.bad }).toEqual({ before: [], after: [] });
      expect(run.after.counts.neither + run.after.counts.error).toBe(0);
      // The page did move on to B: most answers after the deploy are B's.
      expect(run.after.counts.B).toBeGreaterThan(run.after.counts.A);
      expect(run.manifestReadsAfter).toBeLessThanOrEqual(2);
    },
    120_000,
  );

  test("random sources, random evolutions, every host: no answer is neither build's, none fails", async () => {
    const arbSearch = fc.record({
      leafBytes: fc.constantFrom(0, 60, 300),
      fileBytes: fc.constantFrom(0, 100, 600),
      pagesBytes: fc.constantFrom(0, 200, 1200),
      directoryStarts: fc.constantFrom(2, 4096),
    });
    const arbCase = fc
      .record({
        a: arbSources(),
        seed: fc.integer({ min: 0, max: 1000 }),
        grow: fc.constantFrom(1, 1.5, 3),
        pageSize: arbPageSize,
      })
      .chain(({ a, seed, grow, pageSize }) => {
        const b = sourcesB(a, seed, grow);
        const url = fc.oneof(arbRequest(a, pageSize), arbRequest(b, pageSize));
        return fc.record({
          a: fc.constant(a),
          b: fc.constant(b),
          pageSize: fc.constant(pageSize),
          seed: fc.constant(seed),
          host: fc.constantFrom(...HOSTS),
          search: arbSearch,
          before: fc.array(url, { minLength: 3, maxLength: 10 }),
          after: fc.array(url, { minLength: 20, maxLength: 40 }),
        });
      });
    await fc.assert(
      fc.asyncProperty(arbCase, async (c) => {
        const run = await deployRun({ ...c, dir: tempDir('reflist-deploy-'), client, serve: startServe });
        expect({ host: c.host, before: run.before.bad, after: run.after.bad }).toEqual({
          host: c.host,
          before: [],
          after: [],
        });
      }),
      { numRuns: Math.max(8, Math.round(Number(process.env['PROPERTY_RUNS'] ?? 60) / 4)) },
    );
  }, 600_000);
});

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(
    `test/e2e/deploy.test.ts: the Chromium case is skipped: ${CHROMIUM} is missing (apt-get install chromium)`,
  );

/** A page with one select2 over the tree at /lookup/, its client on window for the test to ask. */
const PAGE = `<!doctype html><meta charset="utf-8">
<link rel="stylesheet" href="vendor/select2.min.css">
<script src="vendor/jquery.min.js"></script><script src="vendor/select2.min.js"></script>
<select id="author" style="width: 320px"></select>
<script type="module">
  import { createLookupClient, select2Ajax } from '/lookup/lookup-client.js';
  const client = createLookupClient();
  window.reflist = client;
  $('#author').select2({ ajax: select2Ajax(client, 'author') });
  document.body.dataset.ready = 'true';
</script>`;

describe.skipIf(!hasChromium)('select2 in Chromium across a deploy, with a real HTTP cache', () => {
  const a = sourcesA(4, { authors: 600, descriptors: 30, divisions: 6, categories: 20 });
  const b = sourcesB(a, 4, 7 / 3);
  const pageSize = 30;
  const dirs = [tempDir('reflist-deploy-browser-'), tempDir('reflist-deploy-site-')];
  const tree = join(dirs[0]!, 'dist');
  let server: ReturnType<typeof servePreview>;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    await buildFrom(toCsvFiles(a), tree, pageSize);
    const site = join(dirs[1]!, 'site');
    assemblePreview(tree, site);
    writeFileSync(join(site, 'deploy.html'), PAGE);
    // A host that lets browsers keep every file five minutes, lookup.json too (GitHub Pages keeps them ten).
    writeFileSync(
      join(site, 'serve.json'),
      JSON.stringify({
        headers: [{ source: '**', headers: [{ key: 'Cache-Control', value: 'public, max-age=300' }] }],
      }),
    );
    const port = await freePort();
    server = servePreview(site, port, 'ignore', true);
    url = `http://127.0.0.1:${port}/deploy.html`;
    await waitForServer(url);
    browser = await launchChromium();
    mkdirSync('test-output', { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const texts = (src: RefSources, query: string) =>
    (referenceRequest(src, pageSize, `/author.json?${query}`).body as { items: { text: string }[] }).items.map(
      (i) => i.text,
    );
  /** The results a drop-down shows, once they are one build's: A's or B's, as `expected` lists them. */
  async function settles(demo: DemoPage, expected: { A: string[]; B: string[] }): Promise<'A' | 'B'> {
    let which: 'A' | 'B' | undefined;
    await expect
      .poll(
        async () => {
          const shown = await demo.resultTexts('author');
          which =
            JSON.stringify(shown) === JSON.stringify(expected.B)
              ? 'B'
              : JSON.stringify(shown) === JSON.stringify(expected.A)
                ? 'A'
                : undefined;
          return which !== undefined;
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    return which!;
  }
  const requestsOf = (page: Page) => {
    const urls: string[] = [];
    page.on('request', (r) => urls.push(new URL(r.url()).pathname + new URL(r.url()).search));
    return urls;
  };
  const total = (page: Page) => page.evaluate(`window.reflist.manifest().then((m) => m.lists.author.total)`);

  test("a drop-down open across the swap shows one build's page each time; a page opened after it, with A's lookup.json from the HTTP cache, moves to B", async () => {
    const context = await browser.newContext();
    const open = new DemoPage(await context.newPage());
    await open.goto(url);
    await open.open('author');
    await open.type('fi');
    await expect.poll(() => open.resultTexts('author'), { timeout: 5_000 }).toEqual(texts(a, 'Term=fi'));

    await buildFrom(toCsvFiles(b), tree, pageSize); // the host swaps to B
    await open.type('s');
    await settles(open, { A: texts(a, 'Term=fis'), B: texts(b, 'Term=fis') });
    const page1 = await open.resultTexts('author');
    await open.scrollResults('author');
    await expect
      .poll(async () => (await open.resultTexts('author')).length, { timeout: 5_000 })
      .toBeGreaterThan(page1.length);
    const page2 = (await open.resultTexts('author')).slice(page1.length);
    expect([texts(a, 'Term=fis&Page=2'), texts(b, 'Term=fis&Page=2')]).toContainEqual(page2);
    // An Id the deploy moved to another bucket file: the page reads lookup.json again and is on B from then on.
    await open.page.evaluate(`window.reflist.request('/author.json?Id=${b.author[0]!.id}')`);
    expect(await total(open.page)).toBe(b.author.length);
    await open.page.screenshot({ path: 'test-output/deploy-open-drop-down.png' });

    // A page opened now gets A's lookup.json from the HTTP cache, and every answer is still one build's.
    const later = new DemoPage(await context.newPage());
    const requests = requestsOf(later.page);
    await later.goto(url);
    expect(await total(later.page)).toBe(a.author.length);
    await later.open('author');
    await later.type('fish');
    await settles(later, { A: texts(a, 'Term=fish'), B: texts(b, 'Term=fish') });
    await later.page.evaluate(`window.reflist.request('/author.json?Id=${b.author[0]!.id}')`);
    expect(await total(later.page)).toBe(b.author.length);
    expect(requests.filter((r) => r.startsWith('/lookup/lookup.json?fresh='))).toHaveLength(1);
    await context.close();
  }, 120_000);
});
