// docs/choices.md's example as written, bundled with the real Choices.js from
// node_modules, driven in Debian's Chromium over a tree of the shipped
// sources: what a person sees in each drop-down must be the reference's
// answer for the same query, at the cost in requests the docs promise.
import type { Locator } from 'playwright-core';
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
  console.warn(`test/e2e/choices.test.ts skipped: /usr/bin/chromium is missing (apt-get install chromium)`);

/** A choice as a person sees it in the open drop-down: its label, and its description (a count) where it has one. */
interface Row {
  value: string;
  label: string;
  description?: string;
}

describe.skipIf(!hasChromium)('Choices.js over a static tree, in Chromium (docs/choices.md)', () => {
  const reference = shippedReference();
  const site = useWidgetSite('choices');

  /** The reference's 200 answer to `query`. */
  function answer<T>(query: string): T {
    const { status, body } = reference(query);
    expect(status, query).toBe(200);
    return body as T;
  }

  /** What a person should see for a paged list's query: each item, then its children; parents with their count. */
  function expectedRows(query: string, prefixes?: { parent: string; child: string }): Row[] {
    return answer<{ items: Item[] }>(query).items.flatMap((item) => [
      {
        value: prefixes ? `${prefixes.parent}:${item.id}` : String(item.id),
        label: item.text,
        ...(item.count !== undefined && { description: String(item.count) }),
      },
      ...(item.children ?? []).map((c) => ({ value: `${prefixes!.child}:${c.id}`, label: c.text })),
    ]);
  }

  /** The Choices.js box wrapping select `id`. */
  const box = (id: string): Locator => site.page.locator('.choices', { has: site.page.locator(`select#${id}`) });
  /** Its drop-down's list, the element that scrolls (choices.choiceList.element). */
  const listbox = (id: string): Locator => box(id).locator('.choices__list--dropdown .choices__list[role=listbox]');

  /** Clicks the box, which opens its drop-down with the search field focused. */
  async function open(id: string): Promise<void> {
    await box(id).locator('.choices__inner').click();
    await box(id).locator('.choices__list--dropdown.is-active').waitFor();
  }

  /** Types into the open box's search field one key at a time, as a person does. */
  async function type(id: string, term: string, delay = 20): Promise<void> {
    await box(id).locator('input.choices__input--cloned').pressSequentially(term, { delay });
  }

  /** The choices shown in the open drop-down, in order. */
  function rows(id: string): Promise<Row[]> {
    return listbox(id)
      .locator('.choices__item--choice[data-value]')
      .evaluateAll((els) =>
        els.map((el) => {
          const description = el.querySelector('.choices__description')?.textContent ?? undefined;
          const label = Array.from(el.childNodes)
            .filter((n) => !(n instanceof Element && n.matches('.choices__description')))
            .map((n) => n.textContent)
            .join('')
            .trim();
          return {
            value: (el as HTMLElement).dataset['value']!,
            label,
            ...(description !== undefined && { description }),
          };
        }),
      );
  }

  /** What each choice shown in the open drop-down holds in <mark>, in order. */
  const rowMarks = (id: string) =>
    listbox(id)
      .locator('.choices__item--choice[data-value]')
      .evaluateAll((els) => els.map((el) => Array.from(el.querySelectorAll('mark'), (m) => m.textContent)));
  /** What `term` matched of each row's label: the lookup service's lists are of the phrase rule. */
  const marksOf = (shown: Row[], term: string) =>
    shown.map(({ label }) => highlight(label, term, { typos: false }).map(([start, end]) => label.slice(start, end)));

  /** The items selected in the box, as it shows them: value and label (no remove button). */
  function items(id: string): Promise<{ value: string; label: string }[]> {
    return box(id)
      .locator('.choices__inner .choices__item[data-item]')
      .evaluateAll((els) =>
        els.map((el) => ({
          value: (el as HTMLElement).dataset['value']!,
          label: Array.from(el.childNodes)
            .filter((n) => !(n instanceof Element && n.matches('button')))
            .map((n) => n.textContent)
            .join('')
            .trim(),
        })),
      );
  }

  /** The select's own value(s), as a form would send them. */
  const selectValues = (id: string) =>
    site.page
      .locator(`select#${id}`)
      .evaluate((s: HTMLSelectElement) => Array.from(s.selectedOptions).map((o) => o.value));

  /** Opens `id`, types `term` and clicks the choice of value `value`. */
  async function choose(id: string, term: string, value: string): Promise<void> {
    await open(id);
    await type(id, term);
    await listbox(id).locator(`.choices__item--choice[data-value="${value}"]`).click();
  }

  const isDisabled = (id: string) => box(id).evaluate((el) => el.classList.contains('is-disabled'));

  async function goto(query = ''): Promise<void> {
    await site.page.goto(`${site.url}${query}`);
    await box('county').waitFor(); // the last box the example makes
  }

  test('typing "smi" into the authors shows the reference\'s first page for that term, in its order', async () => {
    await goto('?author=1007,1016');
    const expected = expectedRows('/author.json?Term=smi');
    expect(expected).toHaveLength(30);
    await open('author');
    await type('author', 'smi');
    await poll(() => rows('author')).toEqual(expected);
    // The example's choices mark what the term matched.
    expect(await rowMarks('author')).toEqual(marksOf(expected, 'smi'));
  });

  test('typing "ro" into the divisions shows each matching division with its GBIF count, followed by its matching categories', async () => {
    await goto();
    const expected = expectedRows('/division.json?Term=ro&System=gbif', { parent: 'd', child: 'c' });
    expect(expected.filter((r) => r.value.startsWith('c:')).length).toBeGreaterThan(0);
    await open('division');
    await type('division', 'ro');
    await poll(() => rows('division')).toEqual(expected);
    expect(await rowMarks('division')).toEqual(marksOf(expected, 'ro'));
  });

  test('scrolling the open list of authors to its end loads page 2 below page 1 with one request, where the reader left off', async () => {
    await goto('?author=1007,1016');
    const page1 = expectedRows('/author.json');
    const page2 = expectedRows('/author.json?Page=2');
    await open('author');
    await poll(() => rows('author')).toEqual(page1);
    site.requests.length = 0;
    const before = await listbox('author').evaluate((el) => {
      el.scrollTo(0, el.scrollHeight);
      return { scrollTop: el.scrollTop, overflows: el.scrollHeight > el.clientHeight };
    });
    expect(before.overflows, 'the list box itself scrolls').toBe(true);
    expect(before.scrollTop).toBeGreaterThan(0);
    await poll(() => rows('author')).toEqual([...page1, ...page2]);
    expect(site.requests).toHaveLength(1);
    expect(site.requests[0]).toMatch(/^\/lookup\/author\//);
    // Still where the reader left off (the end of page 1), not back at the top: Choices.js would
    // reset the scroll as it draws page 2, in the frame that shows it or the next, so two frames on.
    await site.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const after = await listbox('author').evaluate((el) => el.scrollTop);
    expect(after).toBeCloseTo(before.scrollTop, -1);
  });

  test("the author ids in the address show as selected authors with the reference's names; an id that names no author is left out", async () => {
    const ids = ['1014', '1007', '1016'];
    const found = ids.flatMap((id) => answer<{ items: Item[] }>(`/author.json?Id=${id}`).items);
    expect(found.map((a) => String(a.id))).toEqual(['1014', '1007']); // the reference knows no author 1016
    const expected = found.map((a) => ({ value: String(a.id), label: a.text }));
    await goto(`?author=${ids.join(',')}`);
    await poll(() => items('author')).toEqual(expected);
    expect(await selectValues('author')).toEqual(['1014', '1007']);
  });

  test('an author already chosen is not offered a second time when a search finds it', async () => {
    await goto('?author=1007');
    await poll(() => items('author')).toHaveLength(1);
    const all = expectedRows('/author.json?Term=white');
    expect(all.map((r) => r.value)).toContain('1007');
    await open('author');
    await type('author', 'white');
    await poll(() => rows('author')).toEqual(all.filter((r) => r.value !== '1007'));
  });

  test("after choosing an author found by a term, the list offers the whole list again, not that term's answer", async () => {
    await goto();
    const white = expectedRows('/author.json?Term=white');
    await choose('author', 'white', white[0]!.value);
    await poll(() => items('author')).toEqual([{ value: white[0]!.value, label: white[0]!.label }]);
    const whole = expectedRows('/author.json').filter((r) => r.value !== white[0]!.value);
    await open('author');
    await poll(() => rows('author')).toEqual(whole);
  });

  test('Escape after typing "ar" into the divisions empties the box, and opening it again shows the whole list\'s page 1 under the empty box', async () => {
    const prefixes = { parent: 'd', child: 'c' };
    const page1 = expectedRows('/division.json?System=gbif', prefixes);
    const ar = expectedRows('/division.json?Term=ar&System=gbif', prefixes);
    expect(ar).not.toEqual(page1);
    await goto();
    await open('division');
    await poll(() => rows('division')).toEqual(page1);
    await type('division', 'ar');
    await poll(() => rows('division')).toEqual(ar);
    await box('division').locator('input.choices__input--cloned').press('Escape');
    await box('division').locator('.choices__list--dropdown.is-active').waitFor({ state: 'detached' });
    await open('division');
    expect(await box('division').locator('input.choices__input--cloned').inputValue()).toBe('');
    await poll(() => rows('division')).toEqual(page1);
  });

  test('a division and then one of its categories can each be chosen, with distinct values, the division showing its GBIF count', async () => {
    await goto();
    const aves = answer<{ items: Item[] }>('/division.json?Id=2&System=gbif').items[0]!;
    expect(aves.count).toBeGreaterThan(0);
    await open('division');
    await type('division', 'aves');
    await poll(() => rows('division').then((r) => r.find((row) => row.value === 'd:2'))).toEqual({
      value: 'd:2',
      label: aves.text,
      description: String(aves.count),
    });
    await listbox('division').locator('.choices__item--choice[data-value="d:2"]').click();
    await poll(() => items('division')).toEqual([{ value: 'd:2', label: aves.text }]);
    expect(await selectValues('division')).toEqual(['d:2']);

    const child = aves.children![1]!;
    await choose('division', child.text.slice(0, 5), `c:${child.id}`);
    await poll(() => items('division')).toEqual([{ value: `c:${child.id}`, label: child.text }]);
    expect(await selectValues('division')).toEqual([`c:${child.id}`]);
  });

  test('a single select with nothing chosen sends no value, however often its list loads, and none again once its choice is removed', async () => {
    await goto();
    await open('country');
    await poll(() => rows('country').then((r) => r.length)).toBe(
      answer<{ items: Item[] }>('/country.json').items.length,
    );
    expect(await selectValues('country')).toEqual([]);
    // A required one is missing, as a form's validation should say.
    expect(
      await site.page.locator('select#country').evaluate((s: HTMLSelectElement) => {
        s.required = true;
        const missing = s.validity.valueMissing;
        s.required = false;
        return missing;
      }),
    ).toBe(true);
    await type('country', 'ca');
    await poll(() => rows('country').then((r) => r.map((row) => row.label))).toContain('Canada');
    expect(await selectValues('country')).toEqual([]);
    await listbox('country').locator('.choices__item--choice[data-value="124"]').click();
    await poll(() => selectValues('country')).toEqual(['124']);
    await box('country').locator('.choices__button').click();
    await poll(() => items('country')).toEqual([]);
    await open('country');
    await type('country', 'b');
    const bs = answer<{ items: Item[] }>('/country.json?Term=b').items.map((c) => String(c.id));
    await poll(() => rows('country').then((r) => r.map((row) => row.value))).toEqual(bs);
    expect(await selectValues('country')).toEqual([]);
  });

  test("the cascade United States → California → Los Angeles offers the reference's counties of California matching what is typed; changing or clearing the country clears state and county", async () => {
    await goto();
    expect(await isDisabled('state')).toBe(true);
    expect(await isDisabled('county')).toBe(true);
    await choose('country', 'united st', '840');
    await poll(() => isDisabled('state')).toBe(false);
    expect(await isDisabled('county')).toBe(true);
    await choose('state', 'calif', '6');
    await poll(() => isDisabled('county')).toBe(false);

    const counties = answer<{ rows: { FIPS: number; county: string }[] }>('/country/840/state/6/county.json').rows;
    expect(counties.length).toBeGreaterThan(50);
    // The service's Term rules: by tier (a label starting with the term first), list order within a tier.
    const q = fold('los');
    const expected = counties
      .map((c) => ({ c, tier: textTier(fold(c.county), q, false) }))
      .filter((x) => x.tier !== NONE)
      .sort((a, b) => a.tier - b.tier)
      .map(({ c }) => ({ value: String(c.FIPS), label: c.county }));
    expect(expected.map((r) => r.label)).toContain('Los Angeles');
    expect(expected.length).toBeLessThan(counties.length);
    await open('county');
    await type('county', 'los');
    await poll(() => rows('county')).toEqual(expected);
    await listbox('county').locator('.choices__item--choice[data-value="6037"]').click();
    await poll(() => selectValues('county')).toEqual(['6037']);
    expect(await items('county')).toEqual([{ value: '6037', label: 'Los Angeles' }]);

    // Another country: state and county are emptied; the state offers that country's states.
    await choose('country', 'canada', '124');
    await poll(() => selectValues('state')).toEqual([]);
    expect(await selectValues('county')).toEqual([]);
    expect(await items('state')).toEqual([]);
    expect(await items('county')).toEqual([]);
    expect(await isDisabled('state')).toBe(false);
    expect(await isDisabled('county')).toBe(true);
    const provinces = answer<{ items: Item[] }>('/country/124/state.json').items.map((s) => ({
      value: String(s.id),
      label: s.text,
    }));
    await open('state');
    await poll(() => rows('state')).toEqual(provinces);
    await listbox('state').locator(`.choices__item--choice[data-value="${provinces[0]!.value}"]`).click();
    await poll(() => isDisabled('county')).toBe(false);

    // Clearing the country (its remove button): state and county are emptied and disabled.
    await box('country').locator('.choices__button').click();
    await poll(() => selectValues('country')).toEqual([]);
    await poll(() => selectValues('state')).toEqual([]);
    expect(await selectValues('county')).toEqual([]);
    expect(await isDisabled('state')).toBe(true);
    expect(await isDisabled('county')).toBe(true);
  });

  test('typing an author one key at a time costs at most one request a keystroke', async () => {
    await goto();
    await open('author');
    await poll(() => rows('author')).toEqual(expectedRows('/author.json'));
    site.requests.length = 0;
    const term = 'smith j';
    await type('author', term, 60);
    await poll(() => rows('author')).toEqual(expectedRows(`/author.json?Term=${encodeURIComponent(term)}`));
    await quiet(site.page, 400); // nothing more follows the last keystroke's answer
    expect(site.requests.length).toBeGreaterThan(0);
    expect(site.requests.length).toBeLessThanOrEqual(term.length);
  });

  test('100 author ids in the address show all 100 names in the order given, one request per id bucket at most', async () => {
    // Every 7th author of the first 24 pages, from the end: an order the tree does not keep.
    const all = Array.from(
      { length: 24 },
      (_, i) => answer<{ items: Item[] }>(`/author.json?Page=${i + 1}`).items,
    ).flat();
    const chosen = all
      .filter((_, i) => i % 7 === 3)
      .slice(0, 100)
      .reverse();
    expect(chosen).toHaveLength(100);
    const distinct = site.buckets(
      'author',
      chosen.map((a) => a.id),
    );
    await goto(`?author=${chosen.map((a) => a.id).join(',')}`);
    await poll(() => items('author').then((i) => i.length)).toBe(100);
    expect(await items('author')).toEqual(chosen.map((a) => ({ value: String(a.id), label: a.text })));
    expect(await selectValues('author')).toEqual(chosen.map((a) => String(a.id)));
    const byId = site.requests.filter((r) => r.startsWith('/lookup/author/id/'));
    expect(byId.length).toBeGreaterThan(0);
    expect(byId.length).toBeLessThanOrEqual(distinct);
    expect(byId.length).toBeLessThan(100);
  });

  describe('a cascade down to a paged level, on a page of real places', () => {
    let url: string;
    beforeAll(async () => {
      url = await addPlacesPage(
        site,
        '<select id="country"></select><select id="city"></select>',
        `import Choices from 'choices.js';
import 'choices.js/public/assets/styles/choices.css';
import { createLookupClient } from 'reflist/client';
import { cascade } from 'reflist/choices';
const client = createLookupClient({ baseUrl: '/places/lookup/' });
cascade(Choices, client, ['#country', '#city'], ['country', 'city']);
`,
      );
    }, 60_000);

    test("a country's cities come a page at a time as the list is scrolled to its end, one request a page, and another country's replace them", async () => {
      await site.page.goto(url);
      await box('city').waitFor();
      await expectPagedCascade(site, {
        async choose(id, term, text) {
          await open(id);
          await type(id, term);
          await listbox(id)
            .locator('.choices__item--choice[data-value]')
            .filter({ hasText: new RegExp(`^${text}$`) })
            .click();
        },
        open,
        texts: async (id) => (await rows(id)).map((row) => row.label),
        scroll: (id) => listbox(id).evaluate((el) => el.scrollTo(0, el.scrollHeight)),
      });
    });
  });

  describe('highlighting, on a page of a words-rule list', () => {
    let url: string;
    beforeAll(async () => {
      url = await addMarksPage(
        site,
        marksBody((id) => `<select id="${id}"></select>`),
        `import Choices from 'choices.js';
import 'choices.js/public/assets/styles/choices.css';
import { createLookupClient } from 'reflist/client';
import { createChoices } from 'reflist/choices';
const client = createLookupClient({ baseUrl: '/marks/lookup/' });
createChoices(Choices, '#marked', client, 'condition');
createChoices(Choices, '#plain', client, 'condition', { highlight: false });
`,
      );
    }, 60_000);

    test('what a term matched shows in <mark>, a label holding markup shows as text, and highlight: false marks nothing', async () => {
      await site.page.goto(url);
      await box('plain').waitFor();
      await expectMarks(site.page, {
        async search(id, term) {
          if ((await box(id).locator('.choices__list--dropdown.is-active').count()) === 0) await open(id);
          await box(id).locator('input.choices__input--cloned').fill('');
          await type(id, term);
        },
        options: (id) => listbox(id).locator('.choices__item--choice[data-value]'),
      });
    });
  });
});
