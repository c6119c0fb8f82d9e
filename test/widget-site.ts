// The drop-down adapters' examples as a site: each docs page's example
// (docs/react-select.md, tom-select.md, choices.md), as written, bundled by
// esbuild with the real widget from node_modules, beside a tree of the
// shipped sources at /lookup/. test/react-select.test.ts, tom-select.test.ts
// and choices.test.ts drive it in Chromium; scripts/bench-widgets.ts measures it.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as bundle } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { CHROMIUM, launchChromium } from '../scripts/demo-page.js';
import { servePreview, waitForServer } from '../scripts/preview.js';
import { build } from '../src/build.js';
import { bucketOf } from '../src/client/paths.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { checkConfig } from '../src/config/declaration.js';
import { freePort, tempDir } from './helpers.js';
import { createDeclaredReference } from './reference-declared.js';

export const WIDGETS = ['react-select', 'tom-select', 'choices'] as const;
export type Widget = (typeof WIDGETS)[number];

export const PAGE_SIZE = 30;
const ROOT = join(import.meta.dirname, '..');

/** The html and the script of a docs page's `## Example`, as written. */
export function docExample(widget: Widget): { html: string; script: string; loader: 'js' | 'jsx' } {
  const page = readFileSync(join(ROOT, 'docs', `${widget}.md`), 'utf8');
  const example = /^## Example\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
  const html = /```html\n([\s\S]*?)```/.exec(example)?.[1];
  const script = /```(jsx?)\n([\s\S]*?)```/.exec(example);
  if (html === undefined || !script) throw new Error(`docs/${widget}.md: "## Example" needs an html and a js or jsx block`);
  return { html, script: script[2]!, loader: script[1] as 'js' | 'jsx' };
}

/**
 * Writes the site into `dir`: `lookup/` (the tree, PAGE_SIZE a page) and for
 * each widget `<widget>/index.html` loading `app.js` (and `app.css`), the
 * docs example bundled as an app would bundle it; `reflist/...` resolves to
 * this package's own exports (lib/, so compile first). A folder's index, so
 * that `/tom-select/?author=1007` keeps its query on any static server.
 */
export async function writeWidgetSite(dir: string): Promise<void> {
  await build({ sources: join(ROOT, 'sources'), out: join(dir, 'lookup'), pageSize: PAGE_SIZE });
  await Promise.all(WIDGETS.map(async (widget) => {
    const { html, script, loader } = docExample(widget);
    const result = await bundle({
      stdin: { contents: script, resolveDir: ROOT, loader, sourcefile: `docs/${widget}.md` },
      bundle: true, format: 'esm', target: 'es2022', jsx: 'automatic', minify: true, outdir: join(dir, widget),
      entryNames: 'app', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'error', metafile: true,
    });
    const css = Object.keys(result.metafile.outputs).some((out) => out.endsWith('.css'));
    mkdirSync(join(dir, widget), { recursive: true });
    writeFileSync(join(dir, widget, 'index.html'), `<!doctype html><meta charset="utf-8"><title>${widget}</title>\n`
      + (css ? '<link rel="stylesheet" href="app.css">\n' : '')
      + `<style>body { font: 14px system-ui; width: 420px; margin: 16px; } select, .ts-wrapper, .choices { margin-bottom: 12px; }</style>\n`
      + `${html}<script type="module" src="app.js"></script>\n`);
  }));
}

/** The reference's answer for `url` over the shipped sources: what every widget must show. */
export function shippedReference(): (url: string) => { status: number; body: unknown } {
  const { declaration } = checkConfig(LOOKUP_SERVICE_CONFIG, 'reflist.config.json');
  const files = Object.fromEntries(declaration!.lists.flatMap((l) => [l.source, l.counts?.source, declaration!.groups?.source])
    .flatMap((s) => (s ? [[s.file, readFileSync(join(ROOT, 'sources', s.file), 'utf8')]] : [])));
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

/** What a widget's tests work with: the site's address, this test's page, and the requests it made. */
export interface WidgetTest {
  url: string;
  page: Page;
  /** Every request this test's page made under /lookup/, in order, as path and query. */
  requests: string[];
  /** How many id buckets of `list` the ids fall in: the most requests restoring them may cost. */
  buckets(list: string, ids: readonly (string | number)[]): number;
}

/**
 * The site served by `serve` and Debian's Chromium, for the describe block it
 * is called in: a new page for each test, its requests under /lookup/
 * recorded, and after each test a screenshot in test-output/ and no errors
 * thrown in the page.
 */
export function useWidgetSite(widget: Widget): WidgetTest {
  let dir: string;
  const current = {
    buckets(list: string, ids: readonly (string | number)[]): number {
      const { buckets } = JSON.parse(readFileSync(join(dir, 'lookup', 'lookup.json'), 'utf8')).lists[list] as { buckets: number };
      return new Set(ids.map((id) => bucketOf(String(id), buckets))).size;
    },
  } as WidgetTest;
  let server: ChildProcess;
  let browser: Browser;
  let pageErrors: string[];
  beforeAll(async () => {
    dir = tempDir(`reflist-${widget}-`);
    await writeWidgetSite(dir);
    const port = await freePort();
    server = servePreview(dir, port, 'ignore', true);
    current.url = `http://127.0.0.1:${port}/`;
    await waitForServer(current.url);
    browser = await launchChromium();
    mkdirSync('test-output', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 720 } });
    pageErrors = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.startsWith('/lookup/')) requests.push(pathname + search);
    });
    Object.assign(current, { page, requests });
  });
  afterEach(async ({ task }) => {
    const name = task.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase();
    await current.page.screenshot({ path: join('test-output', `${widget}-${name}.png`) });
    await current.page.close();
    expect(pageErrors, 'errors thrown in the page').toEqual([]);
  });
  return current;
}
