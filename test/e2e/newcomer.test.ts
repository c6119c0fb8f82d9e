// A newcomer's path, end to end, as the README and the docs tell it: reflist's
// tarball, `reflist init` as the README's block types it, the example lists
// replaced by a cascade of three levels (country → state → city, the city a
// paged list under its state with an optional number field, docs/lists.md),
// the tree built by the project's own `npm run build`, a select2 page as
// docs/select2.md's example makes it (jQuery and select2 copied beside the
// page, a module importing /lookup/lookup-client.js), served by `serve` and
// driven in Chromium; then one city renamed, rebuilt and seen on a reload.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DemoPage, launchChromium } from '../../scripts/demo-page.js';
import { servePreview, waitForServer } from '../../scripts/preview.js';
import { freePort, tempDir } from '../helpers.js';
import { docBlock, hasChromium, PAGE_SIZE, poll, sh } from '../widget-site.js';

const ROOT = join(import.meta.dirname, '../..');

interface City {
  id: number;
  state: number;
  name: string;
  population: number | null;
}

const COUNTRIES = [
  ['AT', 'Austria'],
  ['CH', 'Switzerland'],
  ['IT', 'Italy'],
] as const;

const STATE_NAMES: Record<(typeof COUNTRIES)[number][0], string[]> = {
  AT: [
    'Tyrol',
    'Burgenland',
    'Carinthia',
    'Lower Austria',
    'Salzburg',
    'Styria',
    'Upper Austria',
    'Vienna',
    'Vorarlberg',
  ],
  CH: ['Aargau', 'Basel', 'Bern', 'Fribourg', 'Geneva', 'Glarus', 'Graubünden', 'Jura', 'Lucerne', 'Neuchâtel'],
  IT: [
    'Abruzzo',
    'Aosta Valley',
    'Apulia',
    'Calabria',
    'Campania',
    'Lazio',
    'Liguria',
    'Lombardy',
    'Piedmont',
    'Veneto',
  ],
};

/**
 * States with ids unique across countries, so that a city names its state by one column. Tyrol's 75 cities
 * fill more than two pages of 30; the others have 10 to 45, a tree of a size where a rebuild's few files show.
 */
const STATES = COUNTRIES.flatMap(([country]) => STATE_NAMES[country].map((name) => ({ country, name }))).map(
  ({ country, name }, i) => ({ id: i + 1, country, name, cities: name === 'Tyrol' ? 75 : 10 + ((i * 13) % 36) }),
);

const STARTS = [
  'Alt',
  'Berg',
  'Eben',
  'Fried',
  'Grün',
  'Hoch',
  'Kirch',
  'Lang',
  'Neu',
  'Ober',
  'Roth',
  'Schön',
  'Stein',
];
const ENDS = ['au', 'bach', 'berg', 'dorf', 'feld', 'hausen', 'heim', 'hofen', 'kirchen', 'stadt'];

/** Every sixth city has no population: an empty cell. */
const CITIES: City[] = STATES.flatMap((state, s) =>
  Array.from({ length: state.cities }, (_, i) => {
    const id = state.id * 1000 + i + 1;
    const name = `${STARTS[(i + s) % STARTS.length]}${ENDS[Math.floor(i / STARTS.length) % ENDS.length]}`;
    return { id, state: state.id, name, population: id % 6 === 0 ? null : ((id * 7919) % 50_000) + 300 };
  }),
);

const TYROL = STATES.find((s) => s.name === 'Tyrol')!;
/** The city the newcomer renames, and its new name: a name no city had. */
const RENAMED = CITIES.find((c) => c.state === TYROL.id)!;
const NEW_NAME = 'Sankt Anton am Arlberg';

const CONFIG = {
  $schema: '../node_modules/reflist/schema/reflist.config.schema.json',
  lists: {
    country: { id: { column: 'code', type: 'string' }, label: 'name', shape: 'whole' },
    state: { parent: { list: 'country', column: 'country' }, label: 'name', shape: 'whole' },
    city: {
      parent: { list: 'state', column: 'state' },
      label: 'name',
      fields: { population: { type: 'integer', optional: true } },
    },
  },
};

const csv = (header: string, rows: (string | number | null)[][]) =>
  `${[header, ...rows.map((r) => r.map((cell) => cell ?? '').join(','))].join('\n')}\n`;
const cityCsv = (cities: City[]) =>
  csv(
    'id,state,name,population',
    cities.map((c) => [c.id, c.state, c.name, c.population]),
  );

/** The options a person can pick in a level's open drop-down (no message, no "Loading more" row). */
const selectable = (demo: DemoPage, id: string) => demo.results(id).locator('li.select2-results__option--selectable');

/** Chooses Austria, then Tyrol, each level enabled once the one above has its value. */
async function chooseTyrol(demo: DemoPage): Promise<void> {
  await demo.choose('country', 'aust', 'Austria');
  await poll(() => demo.page.locator('#state').isDisabled()).toBe(false);
  await demo.choose('state', 'tyr', TYROL.name);
  await poll(() => demo.page.locator('#city').isDisabled()).toBe(false);
}

test.skipIf(!hasChromium)(
  "init from the tarball, a cascade of three levels of one's own, built and served: the paged level loads a page a scroll, one request each, and a renamed city shows on a reload after a rebuild that writes a few files",
  async () => {
    const home = tempDir('reflist-newcomer-');
    // The README's "npm pack in a clone": lib/ is compiled by the tests' setup, so the pack scripts need not run.
    await sh(`npm pack --ignore-scripts --silent --pack-destination '${home}'`, ROOT);

    // The README's block, up to npm run dev (which serves until stopped): init, then npm install in the project.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block =
      /```sh\n(npx --yes --package \.\/reflist-[\d.]+\.tgz reflist init my-lists && cd my-lists\n[\s\S]*?)```/
        .exec(readme)![1]!
        .trim()
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, ''));
    expect(block.slice(1)).toEqual(['npm install', 'npm run build', 'npm run dev']);
    await sh(`${block[0]}\n${block[1]}`, home);
    const project = join(home, 'my-lists');

    // Their own lists in place of the example's, as docs/lists.md declares them.
    writeFileSync(join(project, 'sources/reflist.config.json'), `${JSON.stringify(CONFIG, null, 2)}\n`);
    for (const file of ['collection', 'family', 'genus', 'institution', 'species', 'species_count'])
      rmSync(join(project, 'sources', `${file}.csv`));
    writeFileSync(
      join(project, 'sources/country.csv'),
      csv(
        'code,name',
        COUNTRIES.map((c) => [...c]),
      ),
    );
    writeFileSync(
      join(project, 'sources/state.csv'),
      csv(
        'id,country,name',
        STATES.map((s) => [s.id, s.country, s.name]),
      ),
    );
    writeFileSync(join(project, 'sources/city.csv'), cityCsv(CITIES));

    // docs/select2.md, in a project init made: jQuery and select2 as its README says, the tree where the page reads it.
    await sh('npm install --save-dev jquery@3 select2@4.1', project);
    const build = 'npm run build -- --out public/lookup';
    const first = await sh(build, project);
    expect(first).not.toMatch(/warning|error/i);
    const treeFiles = Number(/^tree: (\d+) files/m.exec(first)![1]);

    // An empty population cell is null in the item, the key kept; a filled one is its number.
    const tyrolPages = ['city.json', 'city/page/2.json', 'city/page/3.json'].map(
      (file) =>
        JSON.parse(readFileSync(join(project, 'public/lookup/country/AT/state', String(TYROL.id), file), 'utf8')) as {
          total: number;
          items: { id: number; text: string; population: number | null }[];
        },
    );
    expect(tyrolPages.map((p) => [p.total, p.items.length])).toEqual([
      [TYROL.cities, PAGE_SIZE],
      [TYROL.cities, PAGE_SIZE],
      [TYROL.cities, TYROL.cities - 2 * PAGE_SIZE],
    ]);
    const tyrol = CITIES.filter((c) => c.state === TYROL.id);
    expect(tyrol.some((c) => c.population === null)).toBe(true);
    expect(tyrolPages.flatMap((p) => p.items).sort((a, b) => a.id - b.id)).toEqual(
      tyrol.map((c) => ({ id: c.id, text: c.name, population: c.population })),
    );

    await sh(docBlock('select2', 'vendor').code, project);
    writeFileSync(
      join(project, 'public/index.html'),
      `<!doctype html>
<meta charset="utf-8">
<title>Places</title>
<link rel="stylesheet" href="vendor/select2.min.css">
<style>select { width: 24em; }</style>
<script src="vendor/jquery.min.js"></script>
<script src="vendor/select2.min.js"></script>
<select id="country" data-placeholder="Country"></select>
<select id="state" data-placeholder="State"></select>
<select id="city" data-placeholder="City"></select>
<script type="module" src="app.js"></script>
`,
    );
    writeFileSync(
      join(project, 'public/app.js'),
      `import { cascade, createLookupClient } from '/lookup/lookup-client.js';

cascade(createLookupClient(), [$('#country'), $('#state'), $('#city')], ['country', 'state', 'city']);
`,
    );

    // docs/select2.md's `npx serve --symlinks public`, from this project's serve.
    const port = await freePort();
    const server: ChildProcess = servePreview(join(project, 'public'), port, 'ignore', true);
    const browser = await launchChromium();
    try {
      const url = `http://127.0.0.1:${port}/`;
      await waitForServer(url);
      const page = await browser.newPage({ viewport: { width: 960, height: 720 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const asked: string[] = [];
      page.on('request', (request) => {
        const { pathname, search } = new URL(request.url());
        if (pathname.startsWith(`/lookup/country/AT/state/${TYROL.id}/city`)) asked.push(pathname + search);
      });
      const demo = new DemoPage(page);
      await page.goto(url);
      await page.locator('#city + .select2').waitFor();
      await chooseTyrol(demo);

      await demo.open('city');
      await poll(() => selectable(demo, 'city').count()).toBe(PAGE_SIZE);
      await demo.scrollResults('city');
      await poll(() => selectable(demo, 'city').count()).toBe(2 * PAGE_SIZE);
      await demo.scrollResults('city');
      await poll(() => selectable(demo, 'city').count()).toBe(TYROL.cities);
      await poll(() => demo.hasMore('city')).toBe(false);
      expect((await demo.resultTexts('city')).sort()).toEqual(tyrol.map((c) => c.name).sort());
      expect(asked, 'one request a page of cities').toEqual([
        `/lookup/country/AT/state/${TYROL.id}/city.json`,
        `/lookup/country/AT/state/${TYROL.id}/city/page/2.json`,
        `/lookup/country/AT/state/${TYROL.id}/city/page/3.json`,
      ]);
      await demo.type('sankt anton');
      await poll(() => demo.results('city').locator('.select2-results__message').allInnerTexts()).toEqual([
        'No results found',
      ]);

      // One row of the CSV edited, the tree rebuilt: a few files written, and the page, reloaded, reads the new tree.
      writeFileSync(
        join(project, 'sources/city.csv'),
        cityCsv(CITIES.map((c) => (c.id === RENAMED.id ? { ...c, name: NEW_NAME } : c))),
      );
      const second = await sh(build, project);
      const written = Number(/^wrote (\d+) changed files/m.exec(second)![1]);
      expect(written).toBeGreaterThan(0);
      expect(written, `${written} of ${treeFiles} files written`).toBeLessThanOrEqual(treeFiles / 10);

      await page.reload();
      await page.locator('#city + .select2').waitFor();
      await chooseTyrol(demo);
      await demo.choose('city', 'sankt anton', NEW_NAME);
      expect(await demo.selection('city')).toEqual({ value: String(RENAMED.id), text: NEW_NAME });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      server.kill();
      if (server.exitCode === null && server.signalCode === null) await once(server, 'exit');
    }
  },
  300_000,
);
