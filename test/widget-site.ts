// The drop-down adapters' examples as sites: each docs page's example
// (docs/react-select.md, tom-select.md, choices.md) followed as a reader
// follows it, from an empty folder: the page's install line, the command that
// builds the tree at /lookup/, its HTML, its script and its esbuild command,
// all taken from the page and run as written, with the real widget from the
// npm registry. test/react-select.test.ts, tom-select.test.ts and
// choices.test.ts drive the site in Chromium; scripts/bench-widgets.ts measures it.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { CHROMIUM, launchChromium } from '../scripts/demo-page.js';
import { servePreview, waitForServer } from '../scripts/preview.js';
import { bucketOf } from '../src/client/paths.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { checkConfig } from '../src/config/declaration.js';
import { freePort, tempDir } from './helpers.js';
import { createDeclaredReference } from './reference-declared.js';

export const WIDGETS = ['react-select', 'tom-select', 'choices'] as const;
export type Widget = (typeof WIDGETS)[number];

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
export function docExample(widget: Widget): Block[] {
  const page = readFileSync(join(ROOT, 'docs', `${widget}.md`), 'utf8');
  const example = /^## Example\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
  return Array.from(example.matchAll(/^```(\w+) (\S+)\n([\s\S]*?)^```$/gm), ([, lang, name, code]) => ({
    lang: lang!,
    name: name!,
    code: code!,
  }));
}

/** The block named `name` of a docs page's example. */
export function docBlock(widget: Widget, name: string): Block {
  const block = docExample(widget).find((b) => b.name === name);
  if (!block)
    throw new Error(`docs/${widget}.md: "## Example" has no block named "${name}" (\`\`\`<language> ${name})`);
  return block;
}

/** Runs commands in `cwd` as a reader types them, one line after the other, up to one that fails; rejects with their output. */
function sh(commands: string, cwd: string): Promise<void> {
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
      code === 0 ? resolve() : reject(new Error(`${commands.trim()}: exited with ${code}\n${out}`)),
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
export async function writeWidgetSite(dir: string, widget: Widget): Promise<string> {
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
 * The site of a docs page's example, served by `serve`, and Debian's
 * Chromium, for the describe block it is called in: a new page for each test, its requests under /lookup/
 * recorded, and after each test a screenshot in test-output/ and no errors
 * thrown in the page.
 */
export function useWidgetSite(widget: Widget): WidgetTest {
  let dir: string;
  let site: string;
  const current = {
    buckets(list: string, ids: readonly (string | number)[]): number {
      const { buckets } = JSON.parse(readFileSync(join(site, 'lookup', 'lookup.json'), 'utf8')).lists[list] as {
        buckets: number;
      };
      return new Set(ids.map((id) => bucketOf(String(id), buckets))).size;
    },
  } as WidgetTest;
  let server: ChildProcess;
  let browser: Browser;
  let pageErrors: string[];
  beforeAll(async () => {
    dir = tempDir(`reflist-${widget}-`);
    site = await writeWidgetSite(dir, widget);
    const port = await freePort();
    // The page's `npx serve --symlinks <folder>`, from this project's serve.
    server = servePreview(site, port, 'ignore', true);
    current.url = `http://127.0.0.1:${port}/`;
    await waitForServer(current.url);
    browser = await launchChromium();
    mkdirSync('test-output', { recursive: true });
  }, 300_000); // npm install, the tree, the bundle
  afterAll(async () => {
    await browser?.close();
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 180_000); // Chromium's close and the site's node_modules take minutes on a busy 2-core machine
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
