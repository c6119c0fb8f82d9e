// docs/react-select.md's example as written (react-select 5, React 19,
// react-select-async-paginate), bundled by esbuild and driven in Chromium over
// a tree of the shipped sources: what a person sees in each drop-down must be
// the reference's answer for the same query, at the request costs the
// contract promises.
import { beforeAll, describe, expect, test } from 'vitest';
import { highlight } from '../../src/client/highlight.js';
import { fold } from '../reference.js';
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
  console.warn(`test/e2e/react-select.test.ts skipped: /usr/bin/chromium is missing (apt-get install chromium)`);

describe.skipIf(!hasChromium)("react-select over a static tree, in Chromium (docs/react-select.md's example)", () => {
  const reference = shippedReference();
  const site = useWidgetSite('react-select');

  const body = <T>(path: string): T => {
    const answer = reference(path);
    expect(answer.status, path).toBe(200);
    return answer.body as T;
  };
  const items = (path: string) => body<{ items: Item[] }>(path).items;
  const author = (id: number | string) => items(`/author.json?Id=${id}`)[0]!;
  /** The requests made since `from` (a length of `requests`) under `/lookup/<under>`. */
  const since = (from: number, under = '') => site.requests.slice(from).filter((r) => r.startsWith(`/lookup/${under}`));

  /** Opens the example's page and waits until the form is drawn (saved authors resolved). */
  async function open(query = '?author=1007,1016') {
    await site.page.goto(`${site.url}${query}`);
    await site.page.locator('#author').waitFor();
  }

  /**
   * What a person sees in the open menu of the select whose input is `id`, in
   * order: group headings and options of the listbox its input names
   * (aria-controls); null while the menu is closed.
   */
  const menuTexts = (id: string) =>
    site.page.evaluate((id) => {
      const listbox = document.getElementById(document.getElementById(id)!.getAttribute('aria-controls') ?? '');
      if (!listbox) return null;
      return Array.from(listbox.querySelectorAll('[role="option"], [id$="-heading"]')).map((el) => el.textContent);
    }, id);

  /** What each option of the open menu of the select whose input is `id` holds in <mark>, in order. */
  const menuMarks = (id: string) =>
    site.page.evaluate((id) => {
      const listbox = document.getElementById(document.getElementById(id)!.getAttribute('aria-controls') ?? '');
      return Array.from(listbox?.querySelectorAll('[role="option"]') ?? [], (el) =>
        Array.from(el.querySelectorAll('mark'), (m) => m.textContent),
      );
    }, id);
  /** What `term` matched of each label: the lookup service's lists are of the phrase rule. */
  const marksOf = (labels: string[], term: string) =>
    labels.map((label) => highlight(label, term, { typos: false }).map(([start, end]) => label.slice(start, end)));

  /** The scrolling element of the open menu: the listbox itself (AsyncPaginate's wrapped MenuList). */
  const listbox = async (id: string) =>
    site.page.locator(`[id="${await site.page.locator(`#${id}`).getAttribute('aria-controls')}"]`);

  /** The labels a person sees chosen in the select whose input is `id` (its value container, less input and placeholder). */
  const shown = (id: string) =>
    site.page.evaluate((id) => {
      const input = document.getElementById(id)!;
      const wrapper = input.parentElement!;
      return Array.from(wrapper.parentElement!.children)
        .filter((el) => el !== wrapper && !el.id.endsWith('-placeholder'))
        .map((el) => el.textContent);
    }, id);

  /** The values the form posts for `name` (react-select's hidden inputs); empty ones left out. */
  const posted = (name: string) =>
    site.page
      .locator(`input[type="hidden"][name="${name}"]`)
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value).filter((v) => v !== ''));

  /** Clicks into the select `id`, types `term` one key at a time as a person does, and clicks the option `text`. */
  async function choose(id: string, term: string, text: string) {
    await site.page.locator(`#${id}`).click();
    await site.page.locator(`#${id}`).pressSequentially(term, { delay: 20 });
    await (await listbox(id)).getByRole('option', { name: text, exact: true }).click();
    await poll(() => shown(id)).toEqual([text]);
  }

  /** The reference's page as group headings and options: a heading per division, then the division (with its count) and its categories. */
  const divisionTexts = (divisions: Item[]) =>
    divisions.flatMap((d) => [
      d.text,
      d.count === undefined ? d.text : `${d.text} (${d.count})`,
      ...(d.children ?? []).map((c) => c.text),
    ]);

  test('typing "smi" into authors shows the reference\'s page 1 for that term, in its order', async () => {
    await open();
    const selected = [1007, 1016];
    // react-select hides chosen options from a multi-select's menu.
    const expected = items('/author.json?Term=smi')
      .filter((a) => !selected.includes(a.id))
      .map((a) => a.text);
    expect(expected.length).toBeGreaterThan(20);
    await site.page.locator('#author').click();
    await site.page.locator('#author').pressSequentially('smi', { delay: 20 });
    await poll(() => menuTexts('author')).toEqual(expected);
    // The example's formatOptionLabel marks what the term matched.
    expect(await menuMarks('author')).toEqual(marksOf(expected, 'smi'));
  });

  test('typing "ro" into divisions shows each matching division as a heading, then the division with its gbif count, then its categories', async () => {
    await open();
    const divisions = items('/division.json?Term=ro&System=gbif');
    expect(divisions.length).toBeGreaterThan(1);
    expect(divisions.every((d) => d.count !== undefined && d.children!.length > 0)).toBe(true);
    await site.page.locator('#division').click();
    await site.page.locator('#division').pressSequentially('ro', { delay: 20 });
    await poll(() => menuTexts('division')).toEqual(divisionTexts(divisions));
    const labels = divisions.flatMap((d) => [d.text, ...d.children!.map((c) => c.text)]);
    expect(await menuMarks('division')).toEqual(marksOf(labels, 'ro'));
    // Headings are what groups them: the division's own heading comes right before it.
    const headings = await site.page
      .locator(`[id="${await site.page.locator('#division').getAttribute('aria-controls')}"] [id$="-heading"]`)
      .allTextContents();
    expect(headings).toEqual(divisions.map((d) => d.text));
  });

  test('scrolling the open list of authors to its end loads page 2 below page 1 with one request', async () => {
    await open();
    const selected = [1007, 1016];
    const page1 = items('/author.json')
      .filter((a) => !selected.includes(a.id))
      .map((a) => a.text);
    const page2 = items('/author.json?Page=2')
      .filter((a) => !selected.includes(a.id))
      .map((a) => a.text);
    expect(page2.length).toBeGreaterThan(20);
    await site.page.locator('#author').click();
    await poll(() => menuTexts('author')).toEqual(page1);
    const before = site.requests.length;
    await (await listbox('author')).evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await poll(() => menuTexts('author')).toEqual([...page1, ...page2]);
    // AsyncPaginate checks the scroll every 300 ms: a second load would be a request within that.
    await quiet(site.page, 700);
    const loads = since(before);
    expect(loads).toHaveLength(1);
    expect(await menuTexts('author')).toEqual([...page1, ...page2]);
  });

  test('the saved author ids in the address show their names, in the order given; an id that names no author shows nothing', async () => {
    await open('?author=1007,1016');
    // The reference's Id answers: 1007 is an author, 1016 is none in the shipped sources.
    expect(items('/author.json?Id=1016')).toEqual([]);
    await poll(() => shown('author')).toEqual([author(1007).text]);
    expect(await posted('author')).toEqual(['1007']);
    expect(await site.page.getByRole('button', { name: `Remove ${author(1007).text}`, exact: true }).count()).toBe(1);

    await open('?author=2894,1007,1016');
    const expected = [author(2894).text, author(1007).text];
    expect(expected[0]).not.toEqual(expected[1]);
    await poll(() => shown('author')).toEqual(expected);
    expect(await posted('author')).toEqual(['2894', '1007']);
    expect(await site.page.locator('#author').getAttribute('aria-expanded')).toBe('false');
  });

  test('a division and then one of its categories can each be chosen, with distinct values, the division showing its gbif count', async () => {
    await open();
    const aves = items('/division.json?Id=2&System=gbif')[0]!;
    expect(aves.count).toBeGreaterThan(0);
    const category = aves.children![1]!;
    await choose('division', 'aves', `${aves.text} (${aves.count})`);
    expect(await posted('division')).toEqual([`d:${aves.id}`]);
    await choose('division', category.text.slice(0, 5), category.text);
    expect(await posted('division')).toEqual([`c:${category.id}`]);
  });

  test('the cascade United States → California → Los Angeles offers each level under the one above, and changing or clearing the country clears state and county', async () => {
    await open();
    expect(await site.page.locator('#state').isDisabled()).toBe(true);
    expect(await site.page.locator('#county').isDisabled()).toBe(true);
    await choose('country', 'united st', 'United States');
    await poll(() => site.page.locator('#state').isDisabled()).toBe(false);
    expect(await site.page.locator('#county').isDisabled()).toBe(true);

    // The states of the United States filtered by the term, as the service answers them.
    await site.page.locator('#state').click();
    await site.page.locator('#state').pressSequentially('n', { delay: 20 });
    await poll(() => menuTexts('state')).toEqual(items('/country/840/state.json?Term=n').map((s) => s.text));
    await site.page.locator('#state').fill('');
    await choose('state', 'calif', 'California');
    await poll(() => site.page.locator('#county').isDisabled()).toBe(false);

    // California's counties (a grid: no Term), filtered by the contract's Term rules: tier 1 (starts with) before tier 2.
    const { rows } = body<{ rows: { FIPS: number; county: string }[] }>('/country/840/state/6/county.json');
    const matching = (q: string) => {
      const tier = (label: string) => (fold(label).startsWith(q) ? 1 : ` ${fold(label)}`.includes(` ${q}`) ? 2 : 0);
      return [1, 2].flatMap((t) => rows.filter((r) => tier(r.county) === t)).map((r) => r.county);
    };
    const forC = matching('c');
    expect(forC).toContain('Santa Clara'); // a tier 2 match, after every tier 1 one
    expect(forC.indexOf('Santa Clara')).toBeGreaterThan(forC.indexOf('Colusa'));
    await site.page.locator('#county').click();
    await site.page.locator('#county').pressSequentially('c', { delay: 20 });
    await poll(() => menuTexts('county')).toEqual(forC);
    await site.page.locator('#county').fill('');
    expect(matching('los')).toEqual(['Los Angeles']);
    await choose('county', 'los', 'Los Angeles');
    expect(await posted('country')).toEqual(['840']);
    expect(await posted('state')).toEqual(['6']);
    expect(await posted('county')).toEqual(['6037']);

    // Another country: state and county are emptied; the state offers the new country's states.
    await choose('country', 'canada', 'Canada');
    await poll(() => shown('state')).toEqual([]);
    expect(await shown('county')).toEqual([]);
    expect(await posted('state')).toEqual([]);
    expect(await posted('county')).toEqual([]);
    expect(await site.page.locator('#county').isDisabled()).toBe(true);
    await choose('state', 'ont', 'Ontario');
    expect(await posted('state')).toEqual([String(items('/country/124/state.json?Term=ontario')[0]!.id)]);

    // Clearing the country (Backspace in its empty input) clears and disables the levels below it.
    await site.page.locator('#country').focus();
    await site.page.keyboard.press('Backspace');
    await poll(() => shown('country')).toEqual([]);
    expect(await shown('state')).toEqual([]);
    expect(await posted('state')).toEqual([]);
    expect(await site.page.locator('#state').isDisabled()).toBe(true);
    expect(await site.page.locator('#county').isDisabled()).toBe(true);
  });

  test.each([
    ['smith', 'author', 60, 'AsyncPaginate, keys quicker than its debounce'],
    ['smith j', 'author', 300, 'AsyncPaginate, a pause past its debounce after every key'],
    ['mamm', 'division', 60, 'AsyncSelect, which asks at every key'],
  ])(
    'typing "%s" into %s one key at a time, %i ms apart, costs at most one request a keystroke (%s)',
    async (term, id, delay) => {
      await open();
      await site.page.locator(`#${id}`).click();
      // Opening the menu loads page 1 first (AsyncSelect's defaultOptions, loaded with the page): shown, it is no cost of typing.
      const opening =
        id === 'author'
          ? items('/author.json')
              .filter((a) => ![1007, 1016].includes(a.id))
              .map((a) => a.text)
          : divisionTexts(items('/division.json?System=gbif'));
      await poll(() => menuTexts(id)).toEqual(opening);
      const before = site.requests.length;
      await site.page.locator(`#${id}`).pressSequentially(term, { delay });
      const expected =
        id === 'author'
          ? items(`/author.json?Term=${encodeURIComponent(term)}`)
              .filter((a) => ![1007, 1016].includes(a.id))
              .map((a) => a.text)
          : divisionTexts(items(`/division.json?Term=${term}&System=gbif`));
      await poll(() => menuTexts(id)).toEqual(expected);
      await quiet(site.page, 500); // nothing more follows the last keystroke's answer
      const made = since(before);
      expect(made.length).toBeGreaterThan(0);
      expect(made.length).toBeLessThanOrEqual(term.length);
    },
  );

  test('a multi-select restored from 100 saved author ids shows all 100 names in the order given, reading one file per id bucket', async () => {
    const all = [1, 2, 3, 4, 5].flatMap((p) => items(`/author.json?Page=${p}`));
    // 100 ids that exist, in an order that is neither the list's nor the ids'.
    const ids = all
      .slice(0, 100)
      .map((a) => a.id)
      .sort((a, b) => ((a * 7919) % 1009) - ((b * 7919) % 1009));
    expect(new Set(ids).size).toBe(100);
    const distinct = site.buckets('author', ids);
    const expected = ids.map((id) => author(id).text);
    await open(`?author=${ids.join(',')}`);
    await poll(() => shown('author')).toEqual(expected);
    expect(await posted('author')).toEqual(ids.map(String));
    const reads = since(0, 'author/id/');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(distinct);
    expect(reads.length).toBeLessThan(100);
  });

  describe('a cascade down to a paged level, on a page of real places', () => {
    let url: string;
    beforeAll(async () => {
      url = await addPlacesPage(
        site,
        '<div id="app"></div>',
        `import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AsyncPaginate } from 'react-select-async-paginate';
import { createLookupClient } from 'reflist/client';
import { cascade } from 'reflist/react-select';
const client = createLookupClient({ baseUrl: '/places/lookup/' });
const lists = ['country', 'city'];
const places = cascade(client, lists);
function Places() {
  const [chosen, setChosen] = useState([]);
  return lists.map((list, level) => (
    <AsyncPaginate key={places.key(chosen, level)} inputId={list} {...places.props(chosen, setChosen, level)} />
  ));
}
createRoot(document.getElementById('app')).render(<Places />);
`,
      );
    }, 60_000);

    test("a country's cities come a page at a time as the menu is scrolled to its end, one request a page, and another country's replace them", async () => {
      await site.page.goto(url);
      await site.page.locator('#city').waitFor({ state: 'attached' });
      await expectPagedCascade(site, {
        choose,
        open: (id) => site.page.locator(`#${id}`).click(),
        texts: async (id) => (await menuTexts(id)) ?? [],
        scroll: async (id) =>
          (await listbox(id)).evaluate((el) => {
            el.scrollTop = el.scrollHeight;
          }),
      });
    });
  });

  describe('highlighting, on a page of a words-rule list', () => {
    let url: string;
    beforeAll(async () => {
      url = await addMarksPage(
        site,
        marksBody((id) => `<div id="${id}"></div>`),
        `import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import AsyncSelect from 'react-select/async';
import { createLookupClient } from 'reflist/client';
import { highlighted, loadOptions } from 'reflist/react-select';
const client = createLookupClient({ baseUrl: '/marks/lookup/' });
const formatOptionLabel = highlighted(createElement);
const loaders = { marked: loadOptions(client, 'condition'), plain: loadOptions(client, 'condition', { highlight: false }) };
for (const [id, load] of Object.entries(loaders))
  createRoot(document.getElementById(id)).render(
    <AsyncSelect inputId={id + '-input'} classNamePrefix={id} loadOptions={load} formatOptionLabel={formatOptionLabel} />,
  );
`,
      );
    }, 60_000);

    test('what a term matched shows in <mark>, a label holding markup shows as text, and highlight: false marks nothing', async () => {
      await site.page.goto(url);
      await site.page.locator('#plain-input').waitFor();
      await expectMarks(site.page, {
        async search(id, term) {
          const input = site.page.locator(`#${id}-input`);
          await input.click();
          await input.fill('');
          await input.pressSequentially(term, { delay: 20 });
        },
        options: (id) => site.page.locator(`.${id}__option`),
      });
    });
  });
});
