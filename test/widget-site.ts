// The drop-down adapters' examples as sites: each docs page's example
// (docs/select2.md, react-select.md, tom-select.md, choices.md) followed as a
// reader follows it, from an empty folder: the page's install line, the
// command that builds the tree at /lookup/, its HTML, its script and its
// esbuild command (select2's: none, its page imports the tree's
// lookup-client.js), all taken from the page and run as written, with the
// real widget from the npm registry. test/e2e/select2.test.ts,
// react-select.test.ts, tom-select.test.ts and choices.test.ts drive the site
// in Chromium; scripts/bench-widgets.ts measures the three bundled ones.
// Beside the example, pages of their own over trees of their own (addPage):
// the expectations every adapter's highlighting meets (expectMarks), and
// every adapter's cascade down to a paged level (expectPagedCascade).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build as esbuild } from 'esbuild';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { CHROMIUM, launchChromium } from '../scripts/demo-page.js';
import { servePreview, waitForServer } from '../scripts/preview.js';
import { build } from '../src/build.js';
import { bucketOf } from '../src/client/paths.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { checkConfig } from '../src/config/declaration.js';
import { placesReference, writePlaceSources } from './fixtures/places.js';
import { freePort, tempDir, writeSources } from './helpers.js';
import { createDeclaredReference } from './reference-declared.js';

/** The widgets whose adapter a page imports by name (`reflist/tom-select`), bundled with the page's script. */
export const WIDGETS = ['react-select', 'tom-select', 'choices'] as const;
export type Widget = (typeof WIDGETS)[number];
/** The widgets whose docs page has an "## Example": select2's imports the tree's lookup-client.js, unbundled. */
export type Example = Widget | 'select2';

/** The page size of the tree the examples build (the build's default). */
export const PAGE_SIZE = 30;
const ROOT = join(import.meta.dirname, '..');

/** A fenced block of a docs page: its language, its name (the fence's second word) and its text. */
export interface Block {
  lang: string;
  name: string;
  code: string;
}

/**
 * The named blocks of a docs page's `## Example`, in the page's order, as
 * written. A block is named by its fence (```` ```sh install ````,
 * ```` ```js app.js ````): a file's block by the file's path, a command's by
 * what it does.
 */
export function docExample(widget: Example): Block[] {
  const page = readFileSync(join(ROOT, 'docs', `${widget}.md`), 'utf8');
  const example = /^## Example\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
  return Array.from(example.matchAll(/^```(\w+) (\S+)\n([\s\S]*?)^```$/gm), ([, lang, name, code]) => ({
    lang: lang!,
    name: name!,
    code: code!,
  }));
}

/** The block named `name` of a docs page's example. */
export function docBlock(widget: Example, name: string): Block {
  const block = docExample(widget).find((b) => b.name === name);
  if (!block)
    throw new Error(`docs/${widget}.md: "## Example" has no block named "${name}" (\`\`\`<language> ${name})`);
  return block;
}

/** Runs commands in `cwd` as a reader types them, one line after the other, up to one that fails; resolves to their output, rejects with it. */
export function sh(commands: string, cwd: string): Promise<string> {
  // npm as a reader's, from the cache where it can, without the audit and funding notes.
  const env = {
    ...process.env,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const child = spawn('sh', ['-e', '-c', commands], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${commands.trim()}: exited with ${code}\n${out}`)),
    );
  });
}

/**
 * Follows a docs page's example in the empty (or new) folder `dir`, as the page tells
 * a reader: reflist's tarball and the shipped `sources/` copied in, then each
 * block in the page's order, a file written where its name says, a command
 * run, all but the last (serving). Resolves to the folder the last one
 * serves, the page at its root and the tree at `lookup/`. lib/ must be
 * compiled (the tests' setup does it): the tarball packs it as it is.
 */
export async function writeWidgetSite(dir: string, widget: Example): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await sh(`npm pack --ignore-scripts --silent --pack-destination '${dir}'`, ROOT);
  cpSync(join(ROOT, 'sources'), join(dir, 'sources'), { recursive: true });
  const blocks = docExample(widget);
  const serve = blocks.at(-1);
  if (serve?.name !== 'serve')
    throw new Error(`docs/${widget}.md: "## Example" must end with the block that serves the site (\`\`\`sh serve)`);
  for (const block of blocks.slice(0, -1)) {
    if (block.lang === 'sh') await sh(block.code, dir);
    else {
      mkdirSync(dirname(join(dir, block.name)), { recursive: true });
      writeFileSync(join(dir, block.name), block.code);
    }
  }
  // `npx serve --symlinks public`: the folder is its last word.
  return join(dir, serve.code.trim().split(/\s+/).at(-1)!);
}

/** The reference's answer for `url` over the shipped sources: what every widget must show. */
export function shippedReference(): (url: string) => { status: number; body: unknown } {
  const { declaration } = checkConfig(LOOKUP_SERVICE_CONFIG, 'reflist.config.json');
  const files = Object.fromEntries(
    declaration!.lists
      .flatMap((l) => [l.source, l.counts?.source, declaration!.groups?.source])
      .flatMap((s) => (s ? [[s.file, readFileSync(join(ROOT, 'sources', s.file), 'utf8')]] : [])),
  );
  return createDeclaredReference(declaration!, files, PAGE_SIZE);
}

/** An item of a paged list as the reference answers it. */
export interface Item {
  id: number;
  text: string;
  count?: number;
  children?: { id: number; text: string }[];
}

export const hasChromium = existsSync(CHROMIUM);

/** The widgets wait 250–300 ms after a keystroke; leave a loaded machine room beyond that. */
export const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 5_000 });

/** Each page's requests in flight, and when one last started or ended (ms), for quiet(). */
const traffic = new WeakMap<Page, { inFlight: Set<Request>; last: number }>();

/** Counts the requests of `page` from now on, for quiet(): useWidgetSite does it for every page it opens. */
export function trackTraffic(page: Page): void {
  const seen = { inFlight: new Set<Request>(), last: Date.now() };
  page.on('request', (request) => {
    seen.inFlight.add(request);
    seen.last = Date.now();
  });
  const ended = (request: Request) => {
    seen.inFlight.delete(request);
    seen.last = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  traffic.set(page, seen);
}

/**
 * Waits until `page` has had no request in flight for `ms`, counted from the
 * end of its last request, or from the call if that came later: for a test
 * whose point is that nothing more happens (no load past the last page, no
 * late answer, no error from an image). Such a thing does not show by itself
 * but as a request the widget starts from a timer of its own (a throttle, a
 * scroll check) some time after the last event, so only a stretch of quiet
 * shows there is none; `ms` is that time with room to spare. Where there is
 * a condition to see (options shown, a count reached), wait for it instead.
 */
export async function quiet(page: Page, ms: number): Promise<void> {
  const seen = traffic.get(page);
  if (!seen) throw new Error('quiet(): the page is not tracked (trackTraffic)');
  const from = Date.now();
  await expect
    .poll(() => seen.inFlight.size === 0 && Date.now() - Math.max(seen.last, from) >= ms, {
      timeout: ms + 10_000,
      interval: 25,
      message: `no request in flight for ${ms} ms`,
    })
    .toBe(true);
}

/** What a widget's tests work with: the site's address, this test's page, and the requests it made. */
export interface WidgetTest {
  widget: Example;
  url: string;
  /** The example's folder, its packages installed, and the folder it serves (`url`). */
  dir: string;
  root: string;
  page: Page;
  /** Every request this test's page made under /lookup/, in order, as path and query. */
  requests: string[];
  /** How many id buckets of `list` the ids fall in: the most requests restoring them may cost. */
  buckets(list: string, ids: readonly (string | number)[]): number;
}

/**
 * The site of a docs page's example, served by `serve`, and Debian's
 * Chromium, for the describe block it is called in: a new page for each test, its requests under /lookup/
 * recorded, and after each test a screenshot in test-output/ and no errors
 * thrown in the page.
 */
export function useWidgetSite(widget: Example): WidgetTest {
  const current = {
    widget,
    buckets(list: string, ids: readonly (string | number)[]): number {
      const { buckets } = JSON.parse(readFileSync(join(current.root, 'lookup', 'lookup.json'), 'utf8')).lists[list] as {
        buckets: number;
      };
      return new Set(ids.map((id) => bucketOf(String(id), buckets))).size;
    },
  } as WidgetTest;
  let server: ChildProcess;
  let browser: Browser;
  let pageErrors: string[];
  beforeAll(async () => {
    current.dir = tempDir(`reflist-${widget}-`);
    current.root = await writeWidgetSite(current.dir, widget);
    const port = await freePort();
    // The page's `npx serve --symlinks <folder>`, from this project's serve.
    server = servePreview(current.root, port, 'ignore', true);
    current.url = `http://127.0.0.1:${port}/`;
    await waitForServer(current.url);
    browser = await launchChromium();
    mkdirSync('test-output', { recursive: true });
  }, 300_000); // npm install, the tree, the bundle
  afterAll(async () => {
    await browser?.close();
    server?.kill();
    if (current.dir) rmSync(current.dir, { recursive: true, force: true });
  }, 180_000); // Chromium's close and the site's node_modules take minutes on a busy 2-core machine
  beforeEach(async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 720 } });
    pageErrors = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    trackTraffic(page);
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.startsWith('/lookup/')) requests.push(pathname + search);
    });
    Object.assign(current, { page, requests });
  });
  afterEach(async ({ task }) => {
    const name = task.name
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
    await current.page.screenshot({ path: join('test-output', `${widget}-${name}.png`) });
    await current.page.close();
    expect(pageErrors, 'errors thrown in the page').toEqual([]);
  });
  return current;
}

/**
 * The highlighting pages' list, `condition`: declared without `"match"`, so
 * of the words rule, typos on. `fract fem` finds the two fractures by words
 * apart; a label holding markup must show as text, highlighted or not.
 */
export const MARKS_SOURCES = {
  'reflist.config.json': JSON.stringify({ lists: { condition: {} } }),
  'condition.csv':
    'id,text\n1,Fracture of shaft of right femur\n2,Fracture of neck of femur\n3,<img src=x onerror=alert(1)>\n4,Femoral hernia\n',
};

/**
 * The body of a highlighting page: the drop-downs `marked` and `plain` side
 * by side, so that an open one covers nothing of the other. `element` is the
 * element a widget is made on, by id.
 */
export const marksBody = (element: (id: string) => string) =>
  `<div style="display: flex; gap: 40px">${['marked', 'plain'].map((id) => `<div style="width: 400px">${element(id)}</div>`).join('')}</div>`;

/**
 * Adds a page to a widget's site at /marks/, beside the docs example: a tree
 * of MARKS_SOURCES, `body` (marksBody) and `script`, as addPage makes them.
 */
export function addMarksPage(site: WidgetTest, body: string, script: string): Promise<string> {
  return addPage(site, 'marks', writeSources(join(site.dir, 'marks-sources'), MARKS_SOURCES), body, script);
}

/** What a select2 page loads before its script: the docs example's jQuery and select2, from its vendor/. */
const SELECT2_HEAD =
  '<link rel="stylesheet" href="/vendor/select2.min.css"><script src="/vendor/jquery.min.js"></script><script src="/vendor/select2.min.js"></script>';

/**
 * Adds a page to a widget's site at /`folder`/, beside the docs example: a
 * tree of the sources in `sources` at /`folder`/lookup/, `body`, and
 * `script`. A bundled widget's script (JSX allowed) is bundled by esbuild
 * from the example's folder, so that reflist and the widget are the ones the
 * example installed; select2's is a module as it is, which imports the tree's
 * lookup-client.js, loaded after the example's jQuery and select2. Resolves
 * to the page's address.
 */
export async function addPage(
  site: WidgetTest,
  folder: string,
  sources: string,
  body: string,
  script: string,
): Promise<string> {
  const out = join(site.root, folder);
  await build({ sources, out: join(out, 'lookup') });
  if (site.widget === 'select2') writeFileSync(join(out, `${folder}.js`), script);
  else {
    writeFileSync(join(site.dir, `${folder}.jsx`), script);
    await esbuild({
      absWorkingDir: site.dir,
      entryPoints: [`${folder}.jsx`],
      outdir: out,
      bundle: true,
      format: 'esm',
      jsx: 'automatic',
      minify: true, // React's production build, as the example's bundle
      logLevel: 'warning',
    });
  }
  const head =
    site.widget === 'select2'
      ? SELECT2_HEAD
      : existsSync(join(out, `${folder}.css`))
        ? `<link rel="stylesheet" href="${folder}.css">`
        : '';
  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html><meta charset="utf-8">${head}${body}<script type="module" src="${folder}.js"></script>`,
  );
  return `${site.url}${folder}/`;
}

/** How to search a drop-down of a highlighting page and read what it shows. */
export interface MarksDriver {
  /** Opens drop-down `id` if it is closed, empties its search box and types `term`, a key at a time. */
  search(id: string, term: string): Promise<void>;
  /** The options drop-down `id` shows, open. */
  options(id: string): Locator;
}

/**
 * What every adapter's highlighting shows, on a page with a drop-down `marked`
 * over `condition` as the adapter makes it and one `plain` with its
 * `highlight: false`: the words a term matched in <mark>, as far as it
 * matched them, the rest of the label as it is; a label holding markup as
 * text, marked or not, never an element (no image, no handler run: no
 * dialog); no <mark> at all with highlighting off.
 */
export async function expectMarks(page: Page, widget: MarksDriver): Promise<void> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const shown = (id: string) =>
    widget.options(id).evaluateAll((els) =>
      els.map((el) => ({
        text: el.textContent,
        marks: Array.from(el.querySelectorAll('mark'), (m) => m.textContent),
      })),
    );
  const markup = '<img src=x onerror=alert(1)>';
  for (const [id, fractures, img] of [
    ['marked', ['Fract', 'fem'], ['img']],
    ['plain', [], []],
  ] as const) {
    await widget.search(id, 'fract fem');
    // Both fractures, in the order the tree ranks them.
    await poll(async () => (await shown(id)).sort((a, b) => a.text!.localeCompare(b.text!))).toEqual([
      { text: 'Fracture of neck of femur', marks: fractures },
      { text: 'Fracture of shaft of right femur', marks: fractures },
    ]);
    await widget.search(id, 'img');
    await poll(() => shown(id)).toEqual([{ text: markup, marks: img }]);
    expect(await page.locator('img').count(), 'images in the page').toBe(0);
  }
  // An image made of the label would load `x`, fail and run its handler: none has once the page is quiet.
  await quiet(page, 300);
  expect(dialogs, 'dialogs opened').toEqual([]);
}

/**
 * Adds the places page to a widget's site at /places/: a cascade country →
 * city over the real cities of test/fixtures/places.ts, the city a paged list
 * under its country, made by `script` with `body` (addPage). Resolves to the
 * page's address.
 */
export function addPlacesPage(site: WidgetTest, body: string, script: string): Promise<string> {
  return addPage(site, 'places', writePlaceSources(join(site.dir, 'places-sources')), body, script);
}

/** How to drive a cascade of the places page: choose in one level, open another, read and scroll its list. */
export interface CascadeDriver {
  /** Opens level `id`, types `term` and chooses the option showing `text`. */
  choose(id: string, term: string, text: string): Promise<void>;
  /** Opens level `id` (its list shows). */
  open(id: string): Promise<void>;
  /** The texts the open list of level `id` shows, in order (no "loading more" row). */
  texts(id: string): Promise<string[]>;
  /** Scrolls the open list of level `id` to its end. */
  scroll(id: string): Promise<void>;
}

/**
 * What every adapter's cascade does with a paged level, on the places page:
 * under Malta, the city level shows the reference's page 1 of its 69 cities,
 * then page 2 and page 3 below it as the list is scrolled to its end, one
 * request a page, and nothing more past the last; under Liechtenstein, its 11
 * cities and none of Malta's, however often the list is closed and opened.
 */
export async function expectPagedCascade(site: WidgetTest, widget: CascadeDriver): Promise<void> {
  const { page } = site;
  const reference = placesReference(join(site.dir, 'places-sources'));
  const texts = (url: string) => {
    const { status, body } = reference(url);
    expect(status, url).toBe(200);
    return (body as { items: { text: string }[] }).items.map((item) => item.text);
  };
  const malta = [1, 2, 3].map((n) => texts(`/country/MT/city.json?Page=${n}`));
  expect(malta.map((p) => p.length)).toEqual([PAGE_SIZE, PAGE_SIZE, 9]);
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname.startsWith('/places/lookup/country/MT/city')) asked.push(pathname + search);
  });

  await widget.choose('country', 'malt', 'Malta');
  await widget.open('city');
  await poll(() => widget.texts('city')).toEqual(malta[0]);
  await widget.scroll('city');
  await poll(() => widget.texts('city')).toEqual(malta.slice(0, 2).flat());
  await widget.scroll('city');
  await poll(() => widget.texts('city')).toEqual(malta.flat());
  await widget.scroll('city');
  // A load past the last page would be a request, from the widget's scroll check (AsyncPaginate's every 300 ms).
  await quiet(page, 700);
  expect(await widget.texts('city')).toEqual(malta.flat());
  expect(asked, 'one request a page of cities').toEqual([
    '/places/lookup/country/MT/city.json',
    '/places/lookup/country/MT/city/page/2.json',
    '/places/lookup/country/MT/city/page/3.json',
  ]);

  await widget.choose('country', 'liecht', 'Liechtenstein');
  await widget.open('city');
  const liechtenstein = texts('/country/LI/city.json');
  await poll(() => widget.texts('city')).toEqual(liechtenstein);
  // Closed and opened again: still Liechtenstein's cities alone.
  await page.keyboard.press('Escape');
  await widget.open('city');
  // What opening it again loads has come and is shown: then the list must be Liechtenstein's.
  await quiet(page, 300);
  await poll(() => widget.texts('city')).toEqual(liechtenstein);
}
