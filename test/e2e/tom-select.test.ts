// docs/tom-select.md's example as written, bundled with the real Tom Select
// (tom-select.complete, virtual_scroll included), in Debian's Chromium, over a
// tree of the shipped sources: what a person sees in each drop-down must be
// the reference's answer for the same query.
import type { Request } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { fold } from '../../src/client/fold.js';
import { highlight } from '../../src/client/highlight.js';
import { NONE, textTier } from '../../src/client/rank.js';
import {
  addMarksPage,
  addPlacesPage,
  expectPagedCascade,
  expectMarks,
  hasChromium,
  marksBody,
  poll,
  quiet,
  shippedReference,
  useWidgetSite,
  type Item,
} from '../widget-site.js';

if (!hasChromium)
  console.warn(`test/e2e/tom-select.test.ts skipped: /usr/bin/chromium is missing (apt-get install chromium)`);

describe.skipIf(!hasChromium)('Tom Select on a static tree, in Chromium', () => {
  const reference = shippedReference();
  const site = useWidgetSite('tom-select');

  /** The reference's body for a service URL. */
  function answer<T = { total: number; items: Item[] }>(path: string): T {
    const { status, body } = reference(path);
    expect(status, path).toBe(200);
    return body as T;
  }

  /** What a person should see for a paged query: each item (with its count in brackets), then its children. */
  function expectedTexts(list: string, query: string): string[] {
    const label = (item: Item) => (item.count === undefined ? item.text : `${item.text} (${item.count})`);
    return answer(`/${list}.json?${query}`).items.flatMap((item) => [
      label(item),
      ...(item.children ?? []).map((c) => c.text),
    ]);
  }

  const control = (id: string) => site.page.locator(`#${id}-ts-control`);
  const options = (id: string) =>
    site.page.locator(`#${id}-ts-dropdown .option[data-value]:not(.loading-more-results)`);
  /** The texts a person sees in the open drop-down of select `id`, in order. */
  const optionTexts = (id: string) =>
    options(id).evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText.trim()));
  /** What each option shown in the open drop-down of select `id` holds in <mark>, in order. */
  const optionMarks = (id: string) =>
    options(id).evaluateAll((els) => els.map((el) => Array.from(el.querySelectorAll('mark'), (m) => m.textContent)));
  /** What the tree matched of each label (and child label) of a paged answer: the lookup service's lists are of the phrase rule. */
  const expectedMarks = (list: string, query: string, term: string) =>
    answer(`/${list}.json?${query}`)
      .items.flatMap((item) => [item.text, ...(item.children ?? []).map((c) => c.text)])
      .map((text) => highlight(text, term, { typos: false }).map(([start, end]) => text.slice(start, end)));
  /** The values of the options shown in the open drop-down of select `id`, in order. */
  const optionValues = (id: string) => options(id).evaluateAll((els) => els.map((el) => el.getAttribute('data-value')));
  /**
   * Waits until select `id` has no load under way, and the page no request for 800 ms: a late
   * load starts from Tom Select's throttles (loadThrottle, refreshThrottle: 300 ms each) and
   * shows as a request, so a quiet stretch past them shows none is coming (quiet()).
   */
  async function settled(id: string): Promise<void> {
    await poll(() => site.page.locator(`.ts-wrapper:has(#${id}-ts-control).loading`).count()).toBe(0);
    await quiet(site.page, 800);
  }
  /** The chosen items shown in the control of select `id`: their values and texts, in order. */
  const chosen = (id: string) =>
    site.page
      .locator(`.ts-wrapper:has(#${id}-ts-control) .ts-control > .item`)
      .evaluateAll((els) =>
        els.map((el) => ({ value: el.getAttribute('data-value'), text: (el as HTMLElement).innerText.trim() })),
      );
  /** The values the form would submit for select `id` (an empty single select submits ""; left out here). */
  const submitted = (id: string) =>
    site.page
      .locator(`#${id}`)
      .evaluate((s: HTMLSelectElement) => Array.from(s.selectedOptions, (o) => o.value).filter((v) => v !== ''));

  /** Opens the drop-down of select `id` as a person does, by clicking its control (a click on an open one closes it). */
  async function open(id: string): Promise<void> {
    const active = site.page.locator(`.ts-wrapper:has(#${id}-ts-control).dropdown-active`);
    if ((await active.count()) === 0) await site.page.locator(`.ts-wrapper:has(#${id}-ts-control) .ts-control`).click();
    await active.waitFor();
  }

  /** Types into the focused control of select `id` one key at a time, as a person does. */
  async function typeInto(id: string, term: string): Promise<void> {
    await control(id).pressSequentially(term, { delay: 30 });
  }

  /**
   * Opens select `id`, types `term`, waits until the drop-down shows `shown` (the reference's answer for
   * it: an option still shown from before the term was asked for is not clicked), and clicks `text`.
   */
  async function choose(id: string, term: string, shown: string[], text: string): Promise<void> {
    await open(id);
    await typeInto(id, term);
    await poll(() => optionTexts(id)).toEqual(shown);
    const option = options(id).filter({
      hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(\\d+\\))?$`),
    });
    expect(await option.count()).toBe(1);
    await option.click();
  }

  /** Opens the example, waiting until each select is a Tom Select. */
  async function visit(query = ''): Promise<void> {
    await site.page.goto(`${site.url}${query}`);
    for (const id of ['author', 'division', 'country', 'state', 'county'])
      await control(id).waitFor({ state: 'attached' });
  }

  test.each([
    ['author', 'smi'],
    ['author', 'garcia l'],
    ['author', 'javier'],
    ['author', 'muller'],
    ['division', 'ro'],
    ['division', 'aves'],
  ])(
    'typing %s "%s" shows the reference\'s page 1 for that term, in its order, none hidden and none added',
    async (list, term) => {
      const expected = expectedTexts(
        list,
        `Term=${encodeURIComponent(term)}${list === 'division' ? '&System=gbif' : ''}`,
      );
      expect(expected.length).toBeGreaterThan(1);
      await visit();
      await open(list);
      await typeInto(list, term);
      await poll(() => optionTexts(list)).toEqual(expected);
      // The example's settings mark what the term matched.
      const query = `Term=${encodeURIComponent(term)}${list === 'division' ? '&System=gbif' : ''}`;
      expect(await optionMarks(list)).toEqual(expectedMarks(list, query, term));
    },
  );

  test.each([
    // "Alonso García, Lucía" by later words, folded; "García López, Marta" by its first ones.
    ['garcia l', ['Alonso García, Lucía', 'García López, Marta']],
    // ß folds to ss: Tom Select's own search would hide these.
    ['weiss', ['Weiß, Jörg', 'Weiß, Klaus T.', 'Weiß, Monika F.']],
  ])(
    'authors the tree finds for "%s" by a later word or a folded letter are shown, none hidden by Tom Select',
    async (term, found) => {
      const expected = expectedTexts('author', `Term=${encodeURIComponent(term)}`);
      for (const text of found) expect(expected).toContain(text);
      await visit();
      await open('author');
      await typeInto('author', term);
      await poll(() => optionTexts('author')).toEqual(expected);
    },
  );

  test('after a second term, no option of the first that the second does not match lingers, not even for a moment', async () => {
    const first = expectedTexts('author', 'Term=smi');
    // "mit" is inside "Smith" but starts no word of it: the tree does not match it there.
    const second = expectedTexts('author', 'Term=mit');
    const narrower = expectedTexts('author', 'Term=smith%20j');
    expect(first.filter((t) => !second.includes(t)).length).toBeGreaterThan(0);
    expect(first.filter((t) => !narrower.includes(t)).length).toBeGreaterThan(0);
    await visit();
    await open('author');
    // Every list the drop-down shows, with what was typed at the time.
    await site.page.locator('#author-ts-dropdown').evaluate((content) => {
      const shown: { typed: string; texts: string[] }[] = [];
      (window as unknown as { shown: typeof shown }).shown = shown;
      const input = document.querySelector<HTMLInputElement>('#author-ts-control')!;
      new MutationObserver(() =>
        shown.push({
          typed: input.value,
          texts: Array.from(
            content.querySelectorAll<HTMLElement>('.option[data-value]:not(.loading-more-results)'),
            (el) => el.innerText.trim(),
          ),
        }),
      ).observe(content, { childList: true, subtree: true, characterData: true });
    });
    const shownFor = (typed: string) =>
      site.page.evaluate(
        (t) =>
          (window as unknown as { shown: { typed: string; texts: string[] }[] }).shown
            .filter((s) => s.typed === t)
            .flatMap((s) => s.texts),
        typed,
      );

    await typeInto('author', 'smi');
    await poll(() => optionTexts('author')).toEqual(first);
    // Typed on: the query narrows.
    await typeInto('author', 'th j');
    await poll(() => optionTexts('author')).toEqual(narrower);
    expect((await shownFor('smith j')).filter((t) => !narrower.includes(t))).toEqual([]);
    // Typed over it (selected, then replaced key by key: the drop-down never sees an empty term).
    await control('author').press('ControlOrMeta+a');
    await typeInto('author', 'mit');
    await poll(() => optionTexts('author')).toEqual(second);
    expect((await shownFor('mit')).filter((t) => !second.includes(t))).toEqual([]);
  });

  test('an answer for an earlier term that arrives late does not replace the answer for what is typed now', async () => {
    const narrower = expectedTexts('author', 'Term=smith%20j');
    // The first search read (for "smi") is held back until the one for "smith j" has been answered.
    let searches = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let second: Request | undefined;
    site.page.on('requestfinished', (request) => {
      if (request === second) release();
    });
    await site.page.route('**/lookup/author/search/**', async (route) => {
      if (++searches === 1) await released;
      else second = route.request();
      await route.continue();
    });
    await visit();
    await open('author');
    await typeInto('author', 'smi');
    await poll(async () => searches).toBe(1);
    await typeInto('author', 'th j');
    await poll(() => optionTexts('author')).toEqual(narrower);
    await poll(() => site.page.locator('.ts-wrapper:has(#author-ts-control).loading').count()).toBe(0);
    expect(searches).toBe(2);
    expect(await optionTexts('author')).toEqual(narrower);
  });

  test("erasing the term shows the whole list's page 1 again, and no page after it until the list is scrolled", async () => {
    const page1 = expectedTexts('author', 'Page=1');
    await visit();
    await open('author');
    await poll(() => optionTexts('author')).toEqual(page1);
    await typeInto('author', 'smi');
    await poll(() => optionTexts('author')).toEqual(expectedTexts('author', 'Term=smi'));
    for (let i = 0; i < 3; i++) await control('author').press('Backspace', { delay: 30 });
    await poll(() => optionTexts('author')).toEqual(page1);
    await settled('author');
    expect(await optionTexts('author')).toEqual(page1);
  });

  /** Erases what the author box holds, one key at a time. */
  async function erase(): Promise<void> {
    const typed = await control('author').inputValue();
    for (let i = 0; i < typed.length; i++) await control('author').press('Backspace', { delay: 30 });
  }

  test.each([
    ['erasing it', false, erase],
    ['erasing it after its page 2 was scrolled to', true, erase],
    [
      'closing the list (Escape) and opening it again',
      false,
      async () => {
        await control('author').press('Escape');
        await open('author');
      },
    ],
  ])('a term typed again after %s shows its page 1, not its page 2 or nothing', async (_, scrolled, away) => {
    const page1 = expectedTexts('author', 'Term=garcia');
    const page2 = expectedTexts('author', 'Term=garcia&Page=2');
    expect(page2.length).toBeGreaterThan(0);
    await visit();
    await open('author');
    await poll(() => optionTexts('author')).toEqual(expectedTexts('author', 'Page=1'));
    await typeInto('author', 'garcia');
    await poll(() => optionTexts('author')).toEqual(page1);
    if (scrolled) {
      await site.page.locator('#author-ts-dropdown').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await poll(() => optionTexts('author')).toEqual([...page1, ...page2]);
    }
    await away();
    await poll(() => optionTexts('author')).toEqual(expectedTexts('author', 'Page=1'));
    await typeInto('author', 'garcia');
    await poll(() => optionTexts('author')).toEqual(page1);
    await settled('author');
    expect(await optionTexts('author')).toEqual(page1);
  });

  test('after choosing an author found by a term, searching the same term again shows its page 1, less the one chosen', async () => {
    const [first, ...rest] = answer('/author.json?Term=garcia').items;
    await visit();
    await open('author');
    await typeInto('author', 'garcia');
    await poll(() => optionValues('author')).toEqual([first!.id, ...rest.map((a) => a.id)].map(String));
    await options('author').first().click();
    await poll(() => chosen('author')).toEqual([{ value: String(first!.id), text: first!.text }]);
    await control('author').press('Escape');
    await open('author');
    await typeInto('author', 'garcia');
    await poll(() => optionValues('author')).toEqual(rest.map((a) => String(a.id)));
    await settled('author');
    expect(await optionValues('author')).toEqual(rest.map((a) => String(a.id)));
  });

  test('a first key typed before the opening page has arrived (within 300 ms of focus): closed and opened again, the list shows the whole list\'s page 1 at no request, not "No results found"', async () => {
    const page1 = expectedTexts('author', 'Page=1');
    // The opening page is held until the first key is down, as a quick typist's key beats it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await site.page.route('**/lookup/author/page/1.json', async (route) => {
      await released;
      await route.continue();
    });
    await visit();
    await control('author').focus();
    await control('author').press('g');
    release();
    await poll(() => optionTexts('author')).toEqual(expectedTexts('author', 'Term=g'));
    await settled('author');
    await control('author').press('Escape');
    const before = site.requests.length;
    await open('author');
    await poll(() => optionTexts('author')).toEqual(page1);
    expect(await site.page.locator('#author-ts-dropdown .no-results').count()).toBe(0);
    expect(site.requests.slice(before)).toEqual([]);
  });

  test('scrolling the open list of authors to its end loads page 2 below page 1 with exactly one request', async () => {
    const page1 = expectedTexts('author', 'Page=1');
    const page2 = expectedTexts('author', 'Page=2');
    await visit();
    await open('author');
    await poll(() => optionTexts('author')).toEqual(page1);
    expect(await site.page.locator('#author-ts-dropdown .loading-more-results').count()).toBe(1);
    const before = site.requests.length;
    await site.page.locator('#author-ts-dropdown').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await poll(() => optionTexts('author')).toEqual([...page1, ...page2]);
    expect(site.requests.slice(before)).toHaveLength(1);
  });

  test.each(['1007,1016', '1019,1007'])(
    'the author ids in the address (?author=%s) show as chosen with their labels, an unknown one left out',
    async (ids) => {
      // The reference's Id answers: 1016 names no author.
      const expected = ids
        .split(',')
        .flatMap((id) => answer(`/author.json?Id=${id}`).items.map((item) => ({ value: id, text: item.text })));
      expect(expected.length).toBeGreaterThan(0);
      await visit(`?author=${ids}`);
      await poll(() => chosen('author')).toEqual(expected);
      expect(await submitted('author')).toEqual(expected.map((e) => e.value));
    },
  );

  test('a division and one of its categories can each be chosen, with distinct values, and divisions show their GBIF count', async () => {
    const [aves] = answer('/division.json?Term=aves&System=gbif').items;
    expect(aves).toMatchObject({ id: 2, text: 'Aves' });
    expect(aves!.count).toBeGreaterThan(0);
    const child = aves!.children![1]!;
    await visit();
    await open('division');
    await typeInto('division', 'aves');
    const parent = options('division').filter({ hasText: /^Aves \(\d+\)$/ });
    await poll(() => parent.count()).toBe(1);
    expect(await parent.locator('.reflist-count').innerText()).toBe(`(${aves!.count})`);
    expect(await parent.getAttribute('data-value')).toBe('d:2');
    await parent.click();
    await poll(() => chosen('division')).toEqual([{ value: 'd:2', text: 'Aves' }]);
    expect(await submitted('division')).toEqual(['d:2']);

    const childTerm = child.text.slice(0, 5);
    await choose(
      'division',
      childTerm,
      expectedTexts('division', `Term=${encodeURIComponent(childTerm)}&System=gbif`),
      child.text,
    );
    await poll(() => chosen('division')).toEqual([{ value: `c:${child.id}`, text: child.text }]);
    expect(await submitted('division')).toEqual([`c:${child.id}`]);
  });

  test("the cascade country → state → county offers each level's reference items; changing or clearing the country clears state and county", async () => {
    const states = answer('/country/840/state.json').items.map((s) => s.text);
    type County = { FIPS: number; county: string };
    const counties = answer<{ rows: County[] }>('/country/840/state/6/county.json').rows;
    // A grid takes no Term: the service's Term rules (docs/contract.md §2), tier by tier, list order within one.
    const filtered = (term: string) =>
      counties
        .map((c, i) => ({ c, i, tier: textTier(fold(c.county), fold(term), false) }))
        .filter((x) => x.tier !== NONE)
        .sort((a, b) => a.tier - b.tier || a.i - b.i)
        .map((x) => x.c.county);
    const losCounties = filtered('los');
    expect(losCounties).toContain('Los Angeles');
    expect(losCounties.length).toBeLessThan(counties.length);
    // "ma" starts a word of "San Mateo" but only sits inside "Amador": the county held from before must not show.
    const maCounties = filtered('ma');
    expect(maCounties).toContain('San Mateo');
    expect(maCounties).not.toContain('Amador');
    expect(maCounties).not.toEqual(losCounties);
    const canada = answer('/country.json?Term=canada').items[0]!;
    const canadianStates = answer(`/country/${canada.id}/state.json`).items.map((s) => s.text);

    await visit();
    expect(await control('state').isDisabled()).toBe(true);
    expect(await control('county').isDisabled()).toBe(true);
    const texts = (path: string) => answer(path).items.map((item) => item.text);
    await choose('country', 'united st', texts('/country.json?Term=united%20st'), 'United States');
    await poll(() => control('state').isDisabled()).toBe(false);
    expect(await control('county').isDisabled()).toBe(true);
    await open('state');
    await poll(() => optionTexts('state')).toEqual(states);
    await choose('state', 'calif', texts('/country/840/state.json?Term=calif'), 'California');
    await poll(() => control('county').isDisabled()).toBe(false);
    await open('county');
    await poll(() => optionTexts('county')).toEqual(counties.map((c) => c.county));
    await typeInto('county', 'ma');
    await poll(() => optionTexts('county')).toEqual(maCounties);
    await control('county').press('ControlOrMeta+a');
    await typeInto('county', 'los');
    await poll(() => optionTexts('county')).toEqual(losCounties);
    await options('county')
      .filter({ hasText: /^Los Angeles$/ })
      .click();
    await poll(() => chosen('county')).toEqual([{ value: '6037', text: 'Los Angeles' }]);
    expect([await submitted('country'), await submitted('state'), await submitted('county')]).toEqual([
      ['840'],
      ['6'],
      ['6037'],
    ]);

    // Another country: state and county are emptied, the county waits for a state, the states are the new country's.
    await choose('country', 'canad', texts('/country.json?Term=canad'), canada.text);
    await poll(() => chosen('country')).toEqual([{ value: String(canada.id), text: canada.text }]);
    await poll(() => chosen('state')).toEqual([]);
    expect(await chosen('county')).toEqual([]);
    expect([await submitted('state'), await submitted('county')]).toEqual([[], []]);
    expect(await control('county').isDisabled()).toBe(true);
    await open('state');
    await poll(() => optionTexts('state')).toEqual(canadianStates);
    const stateTerm = canadianStates[0]!.slice(0, 4);
    await choose(
      'state',
      stateTerm,
      texts(`/country/${canada.id}/state.json?Term=${encodeURIComponent(stateTerm)}`),
      canadianStates[0]!,
    );
    await poll(() => control('county').isDisabled()).toBe(false);

    // No country: both levels below are emptied and disabled.
    await open('country');
    await site.page.keyboard.press('Backspace');
    await poll(() => submitted('country')).toEqual([]);
    await poll(() => submitted('state')).toEqual([]);
    expect(await submitted('county')).toEqual([]);
    await poll(() => control('state').isDisabled()).toBe(true);
    expect(await control('county').isDisabled()).toBe(true);
  });

  test("a country's states that arrive after another country was chosen do not replace the new country's", async () => {
    const texts = (path: string) => answer(path).items.map((item) => item.text);
    const canada = answer('/country.json?Term=canada').items[0]!;
    const canadianStates = texts(`/country/${canada.id}/state.json`);
    // The United States' states are held back until Canada's have been answered.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    await site.page.route('**/lookup/country/840/state.json', async (route) => {
      held++;
      await released;
      await route.continue();
    });
    site.page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === `/lookup/country/${canada.id}/state.json`) release();
    });
    await visit();
    await choose('country', 'united st', texts('/country.json?Term=united%20st'), 'United States');
    await poll(async () => held).toBe(1);
    await choose('country', 'canad', texts('/country.json?Term=canad'), canada.text);
    await open('state');
    await poll(() => optionTexts('state')).toEqual(canadianStates);
    await poll(() => site.page.locator('.ts-wrapper:has(#state-ts-control).loading').count()).toBe(0);
    expect(await optionTexts('state')).toEqual(canadianStates);
  });

  // A quick typist, and one slow enough for Tom Select to ask after each key (refreshThrottle and loadThrottle, 300 ms each).
  test.each([30, 400])(
    "typing an author's name one key every %i ms costs at most one request a keystroke",
    async (delay) => {
      const term = 'smith j';
      await visit();
      await open('author');
      await poll(() => optionTexts('author')).toEqual(expectedTexts('author', 'Page=1'));
      const before = site.requests.length;
      await control('author').pressSequentially(term, { delay });
      await poll(() => optionTexts('author')).toEqual(expectedTexts('author', `Term=${encodeURIComponent(term)}`));
      const spent = site.requests.length - before;
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(term.length);
    },
  );

  test('a multi-select restored from 100 author ids shows all 100 labels in the order given, reading each id bucket once', async () => {
    // 100 ids from four pages, in an order of their own (not the list's).
    const items = [1, 2, 3, 4]
      .flatMap((p) => answer(`/author.json?Page=${p}`).items)
      .filter((_, i) => i % 6 !== 5)
      .slice(0, 100);
    expect(items).toHaveLength(100);
    const given = items.map((_, i) => items[(i * 37) % 100]!);
    expect(new Set(given.map((item) => item.id)).size).toBe(100);
    const distinct = site.buckets(
      'author',
      given.map((item) => item.id),
    );

    await visit(`?author=${given.map((item) => item.id).join(',')}`);
    await poll(() => chosen('author')).toEqual(given.map((item) => ({ value: String(item.id), text: item.text })));
    expect(await submitted('author')).toEqual(given.map((item) => String(item.id)));
    const reads = site.requests.filter((path) => path.startsWith('/lookup/author/id/'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(distinct);
    expect(reads.length).toBeLessThan(100);
  });

  describe('a cascade down to a paged level, on a page of real places', () => {
    let url: string;
    beforeAll(async () => {
      url = await addPlacesPage(
        site,
        '<select id="country" placeholder="Country"></select><select id="city" placeholder="City"></select>',
        `import TomSelect from 'tom-select';
import 'tom-select/dist/css/tom-select.css';
import { createLookupClient } from 'reflist/client';
import { cascade } from 'reflist/tom-select';
const client = createLookupClient({ baseUrl: '/places/lookup/' });
cascade(TomSelect, client, ['#country', '#city'], ['country', 'city']);
`,
      );
    }, 60_000);

    test("a country's cities come a page at a time as the list is scrolled to its end, one request a page, and another country's replace them", async () => {
      await site.page.goto(url);
      await control('city').waitFor({ state: 'attached' });
      await expectPagedCascade(site, {
        async choose(id, term, text) {
          await open(id);
          await typeInto(id, term);
          // What the term found, before the click: the list shown before its answer is the whole list's.
          await poll(() => optionTexts(id)).toEqual([text]);
          await options(id)
            .filter({ hasText: new RegExp(`^${text}$`) })
            .click();
        },
        open,
        texts: optionTexts,
        scroll: (id) => site.page.locator(`#${id}-ts-dropdown`).evaluate((el) => el.scrollTo(0, el.scrollHeight)),
      });
    });
  });

  describe('highlighting, on a page of a words-rule list', () => {
    let url: string;
    beforeAll(async () => {
      url = await addMarksPage(
        site,
        marksBody((id) => `<select id="${id}"></select>`),
        `import TomSelect from 'tom-select';
import 'tom-select/dist/css/tom-select.css';
import { createLookupClient } from 'reflist/client';
import { tomSelectSettings } from 'reflist/tom-select';
const client = createLookupClient({ baseUrl: '/marks/lookup/' });
new TomSelect('#marked', tomSelectSettings(client, 'condition'));
new TomSelect('#plain', tomSelectSettings(client, 'condition', { highlight: false }));
`,
      );
    }, 60_000);

    test('what a term matched shows in <mark>, a label holding markup shows as text, and highlight: false marks nothing', async () => {
      await site.page.goto(url);
      await control('plain').waitFor({ state: 'attached' });
      await expectMarks(site.page, {
        async search(id, term) {
          await open(id);
          await control(id).fill('');
          await typeInto(id, term);
        },
        options,
      });
    });
  });
});
