// The demo in a real browser: select2 pointed at a tree built from the shipped
// sources, served by `serve`, driven in Debian's Chromium. What a person sees in
// each drop-down must be what client.request answers for the same query.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CHROMIUM, DemoPage, launchChromium } from '../../scripts/demo-page.js';
import { assemblePreview, servePreview, waitForServer } from '../../scripts/preview.js';
import { build } from '../../src/build.js';
import { PRESETS } from '../../src/config/preset.js';
import type { LookupClient } from '../../src/client/client.js';
import { freePort, tempDir, treeClient } from '../helpers.js';

const OUTPUT = 'test-output';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`test/e2e/browser.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/** select2 waits 250 ms after the last keystroke; leave a loaded CI machine room beyond that. */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 5_000 });

interface Item {
  id: number;
  text: string;
  count?: number;
  children?: { id: number; text: string }[];
}

/** The README's select2 example as written, on a page that loads jQuery and select2 first. */
function readmePage(): string {
  const readme = readFileSync('README.md', 'utf8');
  const example = /^## select2\n[\s\S]*?```html\n([\s\S]*?)```/m.exec(readme)?.[1];
  if (!example) throw new Error('README.md: no html example under "## select2"');
  const head =
    '<link rel="stylesheet" href="vendor/select2.min.css">' +
    '<script src="vendor/jquery.min.js"></script><script src="vendor/select2.min.js"></script>';
  return `<!doctype html><meta charset="utf-8">${head}\n${example}`;
}

describe.skipIf(!hasChromium)('select2 on a static tree, in Chromium', () => {
  let server: ChildProcess;
  let url: string;
  let client: LookupClient;
  let browser: Browser;
  let demo: DemoPage;
  let pageErrors: string[];
  const temps: string[] = [];

  /** What a person should see for a query: the client's items, divisions flattened, counts in brackets. */
  async function expectedTexts(list: string, query: string): Promise<string[]> {
    const { status, body } = await client.request(`/${list}.json?${query}`);
    expect(status).toBe(200);
    const label = (item: Item) => (item.count === undefined ? item.text : `${item.text} (${item.count})`);
    return (body as { items: Item[] }).items.flatMap((item) => [
      label(item),
      ...(item.children ?? []).map((c) => c.text),
    ]);
  }

  beforeAll(async () => {
    temps.push(tempDir('reflist-browser-'), tempDir('reflist-preview-'));
    const tree = join(temps[0]!, 'tree');
    await build({ sources: 'sources', out: tree, pageSize: 30 });
    const preview = join(temps[1]!, 'site');
    assemblePreview(tree, preview);
    writeFileSync(join(preview, 'readme.html'), readmePage());
    const port = await freePort();
    server = servePreview(preview, port, 'ignore', true);
    url = `http://127.0.0.1:${port}/`;
    await waitForServer(url);
    client = await treeClient(tree, { baseUrl: `${url}lookup/` });
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 720 } });
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    demo = new DemoPage(page);
  });

  afterEach(async ({ task }) => {
    const name = task.name
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
    await demo.page.screenshot({ path: join(OUTPUT, `browser-${name}.png`) });
    await demo.page.close();
    expect(pageErrors, 'errors thrown in the page').toEqual([]);
  });

  test.each([
    ['author', 'smi'],
    ['author', 'smith j'],
    ['descriptor', 'tax'],
    ['division', 'ro'],
    ['division', 'aves'],
  ])(
    'typing into %s "%s" shows the names the client answers, in order, one request a keystroke at most',
    async (list, term) => {
      await demo.goto(url);
      const expected = await expectedTexts(list, `Term=${encodeURIComponent(term)}`);
      expect(expected.length).toBeGreaterThan(0);
      await demo.open(list);
      const requests: string[] = [];
      demo.page.on('request', (r) => requests.push(r.url()));
      await demo.type(term);
      await poll(() => demo.resultTexts(list)).toEqual(expected);
      expect(requests.length).toBeLessThanOrEqual(term.length);
    },
  );

  test('opening the author drop-down lists page 1, and scrolling down loads page 2 below it', async () => {
    await demo.goto(url);
    const page1 = await expectedTexts('author', 'Page=1');
    const page2 = await expectedTexts('author', 'Page=2');
    await demo.open('author');
    await poll(() => demo.resultTexts('author')).toEqual(page1);
    expect(await demo.hasMore('author')).toBe(true);
    await demo.scrollResults('author');
    await poll(() => demo.resultTexts('author')).toEqual([...page1, ...page2]);
  });

  test('scrolling to the end of a term with three pages shows every match once and offers no more', async () => {
    await demo.goto(url);
    const pages = await Promise.all([1, 2, 3, 4].map((p) => expectedTexts('author', `Term=pa&Page=${p}`)));
    expect(pages[2]!.length).toBeGreaterThan(0);
    expect(pages[3]).toEqual([]);
    const all = pages.flat();
    await demo.open('author');
    await demo.type('pa');
    for (let shown = 1; shown <= 3; shown++) {
      await poll(() => demo.resultTexts('author')).toEqual(pages.slice(0, shown).flat());
      if (shown < 3) await demo.scrollResults('author');
    }
    expect(await demo.resultTexts('author')).toHaveLength(all.length);
    expect(await demo.hasMore('author')).toBe(false);
  });

  test('a division and then one of its categories can each be chosen, with distinct values', async () => {
    await demo.goto(url);
    await demo.choose('division', 'aves', 'Aves');
    expect(await demo.selection('division')).toEqual({ value: 'd:2', text: 'Aves' });
    const children = ((await client.request('/division.json?Id=2')).body as { items: Item[] }).items[0]!.children!;
    const child = children[1]!;
    await demo.choose('division', child.text.slice(0, 5), child.text);
    expect(await demo.selection('division')).toEqual({ value: `c:${child.id}`, text: child.text });
    expect(await demo.selectedData('division')).toMatchObject([
      { id: `c:${child.id}`, kind: 'child', parentId: 2, itemId: child.id },
    ]);
  });

  test('the drop-down styles divisions as parents and indents their categories', async () => {
    await demo.goto(url);
    await demo.open('division');
    await demo.type('aves');
    const rows = demo.results('division').locator('li.select2-results__option--selectable');
    await poll(() => rows.count()).toBeGreaterThan(1);
    expect(await rows.first().getAttribute('class')).toContain('reflist-parent');
    expect(await rows.nth(1).getAttribute('class')).toContain('reflist-child');
    const indent = await rows.evaluateAll((els) => els.slice(0, 2).map((el) => getComputedStyle(el).paddingLeft));
    expect(parseFloat(indent[1]!)).toBeGreaterThan(parseFloat(indent[0]!));
  });

  test('ids in the address preselect an author, a category and a descriptor', async () => {
    const author = ((await client.request('/author.json?Id=1007')).body as { items: Item[] }).items[0]!;
    const category = ((await client.request('/division.json?Id=3&child=true')).body as { items: Item[] }).items[0]!;
    const descriptor = ((await client.request('/descriptor.json?Id=1')).body as { items: Item[] }).items[0]!;
    await demo.goto(`${url}?author=1007&division=c:3&descriptor=1`);
    expect(await demo.selection('author')).toEqual({ value: '1007', text: author.text });
    expect(await demo.selection('division')).toEqual({ value: 'c:3', text: category.children![0]!.text });
    expect(await demo.selection('descriptor')).toEqual({ value: '1', text: descriptor.text });
    expect(await demo.selectedData('division')).toMatchObject([{ kind: 'child', parentId: category.id, itemId: 3 }]);
    await poll(() => demo.page.locator('#form-data').innerText()).toContain('author=1007');
  });

  test('preselect, called from the page, selects a division by number with its System count', async () => {
    await demo.goto(url);
    // A string, so the test runner leaves the page's own import() alone.
    const selected = await demo.page.evaluate(`(async () => {
      const { createLookupClient, preselect } = await import('/lookup/lookup-client.js');
      return preselect($('#division'), createLookupClient(), 'division', 2, { group: 'gbif' });
    })()`);
    const expected = ((await client.request('/division.json?Id=2&System=gbif')).body as { items: Item[] }).items[0]!;
    expect(selected).toMatchObject({ id: 'd:2', text: expected.text, count: expected.count, kind: 'parent' });
    expect(await demo.selection('division')).toEqual({ value: 'd:2', text: expected.text });
    expect(await demo.selectedData('division')).toMatchObject([{ count: expected.count }]);
  });

  test('the cascade United States → California → Los Angeles gives FIPS 6037 and its center; clearing the country clears the rest', async () => {
    await demo.goto(url);
    expect(await demo.page.locator('#state').isDisabled()).toBe(true);
    await demo.choose('country', 'united st', 'United States');
    await poll(() => demo.page.locator('#state').isDisabled()).toBe(false);
    expect(await demo.page.locator('#county').isDisabled()).toBe(true);
    await demo.choose('state', 'calif', 'California');
    await demo.choose('county', 'los', 'Los Angeles');
    expect(await demo.selection('county')).toEqual({ value: '6037', text: 'Los Angeles' });
    const [county] = await demo.selectedData('county');
    expect(county).toMatchObject({ FIPS: 6037, county: 'Los Angeles', parentIds: ['840', '6'] });
    expect(county!['latitudeCenter']).toBeCloseTo(34.3, 1);
    expect(county!['LongitudeCenter']).toBeCloseTo(-118.2, 1);
    const info = await demo.page.locator('#county-info').innerText();
    expect(info).toMatch(/^Los Angeles: FIPS 6037 · LongitudeCenter -118\.2\d* · latitudeCenter 34\.3\d*$/);

    await demo.page.locator('#country + .select2 .select2-selection__clear').click();
    await poll(() => demo.selection('state')).toMatchObject({ value: null });
    expect(await demo.selection('county')).toMatchObject({ value: null });
    expect(await demo.page.locator('#state').isDisabled()).toBe(true);
    expect(await demo.page.locator('#county-info').innerText()).toBe('');
  });

  test("the state list under a country only offers that country's states, filtered by the term", async () => {
    await demo.goto(url);
    await demo.choose('country', 'canada', 'Canada');
    const expected = await expectedTexts('country/124/state', 'Term=n');
    await demo.open('state');
    await demo.type('n');
    await poll(() => demo.resultTexts('state')).toEqual(expected);
  });

  test("switching System shows that system's counts in the author and division options", async () => {
    await demo.goto(url);
    for (const system of ['gbif', 'col']) {
      await demo.setSystem(system);
      for (const [list, term] of [
        ['author', 'smi'],
        ['division', 'a'],
      ] as const) {
        const expected = await expectedTexts(list, `Term=${term}&System=${system}`);
        expect(expected.some((text) => /\(\d+\)$/.test(text))).toBe(true);
        await demo.open(list);
        await demo.type(term);
        await poll(() => demo.resultTexts(list)).toEqual(expected);
        await demo.page.keyboard.press('Escape');
      }
    }
    await demo.setSystem('');
    await demo.open('author');
    await demo.type('smi');
    await poll(() => demo.resultTexts('author')).toEqual(await expectedTexts('author', 'Term=smi'));
  });

  test("react-select, Tom Select and Choices.js each show the author list's answer to a term, and what is chosen is submitted", async () => {
    await demo.goto(url);
    const expected = (await expectedTexts('author', 'Term=m%C3%BCl')).slice(0, 10);
    const widgets = [
      ['react-select', '#react-select-author', '#widgets [role=option]'],
      ['tom-select', '#tom-select-author-ts-control', '#tom-select-author-ts-dropdown .option'],
      ['choices', '#widgets .choices', '#widgets .choices__item--choice'],
    ] as const;
    for (const [widget, control, options] of widgets) {
      await demo.page.locator(control).click();
      await demo.page.keyboard.type('mül', { delay: 20 });
      await poll(async () =>
        (await demo.page.locator(options).allInnerTexts()).slice(0, 10).map((t) => t.trim()),
      ).toEqual(expected);
      await demo.page.keyboard.press('Enter');
      await poll(() => demo.page.locator('#form-data').innerText()).toMatch(new RegExp(`${widget}-author=\\d+`));
      await demo.page.keyboard.press('Escape');
    }
  });

  test("the README's select2 example works as written", async () => {
    await demo.page.goto(`${url}readme`);
    const author = ((await client.request('/author.json?Id=1007')).body as { items: Item[] }).items[0]!;
    await poll(() => demo.selection('author')).toEqual({ value: '1007', text: author.text });
    await demo.setSystem('gbif');
    await demo.open('division');
    await demo.type('aves');
    await poll(() => demo.resultTexts('division')).toEqual(await expectedTexts('division', 'Term=aves&System=gbif'));
    await demo.page.keyboard.press('Escape');
    await demo.choose('country', 'united st', 'United States');
    await demo.choose('state', 'calif', 'California');
    await demo.choose('county', 'los', 'Los Angeles');
    expect(await demo.selectedData('county')).toMatchObject([{ FIPS: 6037 }]);
  });
});

describe.skipIf(!hasChromium)("the demo over a project of its own lists (reflist init's example), in Chromium", () => {
  let server: ChildProcess;
  let url: string;
  let browser: Browser;
  let demo: DemoPage;
  const temps: string[] = [];

  beforeAll(async () => {
    temps.push(tempDir('reflist-own-'), tempDir('reflist-own-preview-'));
    const sources = join(temps[0]!, 'sources');
    mkdirSync(sources);
    const { config, sources: files } = PRESETS.example;
    writeFileSync(join(sources, 'reflist.config.json'), JSON.stringify(config));
    for (const { file, text } of files) writeFileSync(join(sources, file), text);
    const tree = join(temps[0]!, 'tree');
    await build({ sources, out: tree });
    const preview = join(temps[1]!, 'site');
    assemblePreview(tree, preview);
    const port = await freePort();
    server = servePreview(preview, port, 'ignore', true);
    url = `http://127.0.0.1:${port}/`;
    await waitForServer(url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    demo = new DemoPage(await browser.newPage({ viewport: { width: 960, height: 720 } }));
  });
  afterEach(async () => {
    await demo.page.close();
  });

  test('the three-level cascade family → genus → species offers each level under the choice above it; clearing the family clears the rest', async () => {
    await demo.goto(url);
    expect(await demo.page.locator('#genus').isDisabled()).toBe(true);
    await demo.choose('family', 'faga', 'Fagaceae');
    await poll(() => demo.page.locator('#genus').isDisabled()).toBe(false);
    await demo.open('genus');
    await poll(() => demo.resultTexts('genus')).toEqual(['Fagus', 'Quercus']);
    await demo.page.keyboard.press('Escape');
    await demo.choose('genus', 'que', 'Quercus');
    await demo.choose('genusSpecies', 'rob', 'Quercus robur');
    expect(await demo.selection('genusSpecies')).toEqual({ value: '100', text: 'Quercus robur' });
    expect(await demo.selectedData('genusSpecies')).toMatchObject([{ id: '100', itemId: 100, parentIds: ['1', '10'] }]);

    await demo.page.locator('#family + .select2 .select2-selection__clear').click();
    await poll(() => demo.selection('genus')).toMatchObject({ value: null });
    expect(await demo.selection('genusSpecies')).toMatchObject({ value: null });
    expect(await demo.page.locator('#genusSpecies').isDisabled()).toBe(true);
  });

  test('without select2 (offline, the packages not installed), the demo says so instead of showing plain selects', async () => {
    await demo.page.route('**/vendor/**', (route) => route.abort());
    await demo.page.goto(url);
    await poll(() => demo.page.getByRole('alert').textContent()).toMatch(/^select2 could not be loaded/);
    expect(await demo.page.locator('select').count()).toBe(0);
  });

  test('string ids, a template label and counts per collection show in the searchable lists', async () => {
    await demo.goto(`${url}?institution=FR-MNHN&collection=herbarium`);
    expect(await demo.selection('institution')).toEqual({
      value: 'FR-MNHN',
      text: "Muséum national d'Histoire naturelle (Paris)",
    });
    await demo.open('species');
    await demo.type('quer');
    await poll(() => demo.resultTexts('species')).toEqual(['Quercus petraea (45)', 'Quercus robur (120)']);
  });
});
