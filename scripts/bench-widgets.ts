// npm run bench -- widgets: what each drop-down adapter costs. Its size
// (lib/widgets/<widget>.js minified and gzipped; the client it imports is the
// page's anyway, and is counted once, apart), what it adds to an app that
// bundles the client already (the adapter brings the client's widget-neutral
// source along, which createLookupClient alone leaves out), and in Chromium,
// over the docs examples as test/widget-site.ts builds them, the requests it
// makes: a term typed a key at a time, scrolling to page 2, and a
// multi-select restored from 100 ids against the distinct id buckets they
// fall in.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as bundle } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { bucketOf } from '../src/client/paths.js';
import { freePort, tempDir } from '../test/helpers.js';
import { WIDGETS, writeWidgetSite, type Widget } from '../test/widget-site.js';
import { launchChromium } from './demo-page.js';
import { servePreview, waitForServer } from './preview.js';

/** Where a person types into the author drop-down, and the element that scrolls its open list. */
const AUTHOR: Record<Widget, { input: string; list: string }> = {
  'react-select': { input: '#author', list: '[role=listbox]' },
  'tom-select': { input: '#author-ts-control', list: '#author-ts-dropdown' },
  choices: {
    input: '.choices:has(#author) input.choices__input--cloned',
    list: '.choices:has(#author) .choices__list--dropdown .choices__list',
  },
};

const TERM = 'smith, j';
const KEY_DELAY_MS = 120; // a brisk typist

async function minGzip(
  entry: { file: string } | { code: string },
  external: string[] = [],
): Promise<{ min: number; gz: number }> {
  const { outputFiles } = await bundle({
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.code, resolveDir: process.cwd() } }),
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    external,
    logLevel: 'error',
  });
  const code = outputFiles[0]!.contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

/** An app's code that bundles the client and makes one; `more` is what else it imports. */
const app = (more = '') =>
  `import { createLookupClient } from 'reflist/client';\n${more}export const client = createLookupClient({ baseUrl: '/lookup/' });\n`;

/** The requests under /lookup/ that `act` makes, once the page has had `settle` ms to finish. */
async function requestsDuring(page: Page, act: () => Promise<void>, settle = 1200): Promise<string[]> {
  const seen: string[] = [];
  const record = (r: { url(): string }) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/lookup/') && !path.endsWith('/lookup.json')) seen.push(path);
  };
  page.on('request', record);
  await act();
  await page.waitForTimeout(settle);
  page.off('request', record);
  return seen;
}

export async function widgetsBench(): Promise<void> {
  // The sizes are lib/'s, and the examples install lib/ as it is: made from the sources first.
  execFileSync(process.execPath, ['scripts/compile.mjs'], { stdio: 'inherit' });
  console.log('adapter sizes (lib/widgets, the client it imports left out; esbuild --minify, gzip -9):');
  const client = await minGzip({ file: 'lib/tree/lookup-client.js' });
  for (const widget of WIDGETS) {
    const { min, gz } = await minGzip({ file: `lib/widgets/${widget}.js` }, ['../tree/lookup-client.js']);
    console.log(`  reflist/${widget.padEnd(13)} ${String(min).padStart(6)} B min, ${String(gz).padStart(5)} B gz`);
  }
  console.log(
    `  (reflist/client, shared:  ${String(client.min).padStart(6)} B min, ${String(client.gz).padStart(5)} B gz)`,
  );
  const alone = await minGzip({ code: app() });
  console.log(
    `\nwhat each adds to an app that bundles createLookupClient alone (${alone.min} B min, ${alone.gz} B gz), every export of the adapter kept:`,
  );
  for (const widget of WIDGETS) {
    const { min, gz } = await minGzip({ code: app(`export * from 'reflist/${widget}';\n`) });
    console.log(
      `  reflist/${widget.padEnd(13)} +${String(min - alone.min).padStart(5)} B min, +${String(gz - alone.gz).padStart(5)} B gz`,
    );
  }

  const root = tempDir('reflist-widgets-bench-');
  // 100 author ids spread over the list, as a saved multi-select would hold them.
  const ids = Array.from({ length: 100 }, (_, i) => 1000 + i * 53);
  const browser = await launchChromium();
  console.log(
    `\nrequests in Chromium (tree of the shipped sources, 30 a page; "${TERM}" typed ${TERM.length} keys, ${KEY_DELAY_MS} ms apart):`,
  );
  console.log(
    '  widget          keystrokes  requests  page 2: requests (files)               100 ids: requests / distinct buckets',
  );
  try {
    for (const widget of WIDGETS) {
      const site = await writeWidgetSite(join(root, widget), widget);
      const manifest = JSON.parse(readFileSync(join(site, 'lookup/lookup.json'), 'utf8'));
      const distinct = new Set(ids.map((id) => bucketOf(String(id), manifest.lists.author.buckets as number))).size;
      const port = await freePort();
      const server = servePreview(site, port, 'ignore', true);
      const url = `http://127.0.0.1:${port}/`;
      try {
        await waitForServer(url);
        console.log(`  ${widget.padEnd(14)}  ${await requestCounts(browser, url, widget, ids, distinct)}`);
      } finally {
        server.kill();
      }
    }
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** One widget's row: a term typed, page 2 scrolled to, 100 ids restored, on the example served at `url`. */
async function requestCounts(
  browser: Browser,
  url: string,
  widget: Widget,
  ids: number[],
  distinct: number,
): Promise<string> {
  const { input, list } = AUTHOR[widget];
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  await page.goto(url);
  await page.locator(input).click();
  await page.waitForTimeout(1200); // the list's first page on opening
  const typed = await requestsDuring(page, () => page.locator(input).pressSequentially(TERM, { delay: KEY_DELAY_MS }));
  await page.close();
  // A fresh page: opened, it shows page 1; scrolled to the end, page 2.
  const fresh = await browser.newPage({ viewport: { width: 800, height: 900 } });
  await fresh.goto(url);
  await fresh.locator(input).click();
  await fresh.waitForTimeout(1200);
  // Scrolled to the end once, as the browser tests do: a mouse wheel flung on would reach page 2's end as well.
  const scrolled = await requestsDuring(fresh, () =>
    fresh
      .locator(list)
      .first()
      .evaluate((el) => el.scrollTo(0, el.scrollHeight)),
  );
  await fresh.close();
  const restore = await browser.newPage();
  const restored = await requestsDuring(restore, () => restore.goto(`${url}?author=${ids.join(',')}`).then(() => {}));
  await restore.close();
  const idRequests = restored.filter((p) => p.startsWith('/lookup/author/id/')).length;
  return `${String(TERM.length).padStart(10)}  ${String(typed.length).padStart(8)}  ${`${scrolled.length} (${scrolled.map((p) => p.slice('/lookup/'.length)).join(', ')})`.padEnd(37)}  ${idRequests} / ${distinct}`;
}
