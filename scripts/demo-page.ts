// Drives the demo page the way a person does (click, type, scroll, pick) in
// Debian's Chromium; shared by test/e2e/browser.test.ts and scripts/screenshot.ts.
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, headless; playwright never downloads a browser here. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export class DemoPage {
  constructor(readonly page: Page) {}

  /** Opens the demo and waits until its selects are wired (and any preselection is done). */
  async goto(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.waitForSelector('body[data-ready="true"]');
  }

  /** The open drop-down's result list of select `id`. */
  results(id: string): Locator {
    return this.page.locator(`#select2-${id}-results`);
  }

  /** Clicks the select2 box of select `id`, which opens its drop-down with the search field focused. */
  async open(id: string): Promise<void> {
    await this.page.locator(`#${id} + .select2 .select2-selection`).click();
    await this.page.locator('.select2-container--open .select2-search__field').waitFor();
  }

  /** Types into the open drop-down's search field one key at a time, as a person does. */
  async type(term: string): Promise<void> {
    await this.page.locator('.select2-container--open .select2-search__field').pressSequentially(term, { delay: 20 });
  }

  /** The texts a person sees in the open results, in order (no "Searching…" or "Loading more…" rows). */
  async resultTexts(id: string): Promise<string[]> {
    return this.results(id).locator('li.select2-results__option--selectable').allInnerTexts();
  }

  /** Scrolls the results to their end, which makes select2 ask for the next page. */
  async scrollResults(id: string): Promise<void> {
    await this.results(id).evaluate((el) => el.scrollTo(0, el.scrollHeight));
  }

  /** Whether select2 still offers a "Loading more results…" row. */
  async hasMore(id: string): Promise<boolean> {
    return (await this.results(id).locator('.select2-results__option--load-more').count()) > 0;
  }

  /** Opens `id`, types `term` and clicks the result showing exactly `text`. */
  async choose(id: string, term: string, text: string): Promise<void> {
    await this.open(id);
    await this.type(term);
    await this.results(id).getByRole('option', { name: text, exact: true }).first().click();
  }

  /** The select's value and the text its select2 box shows. */
  async selection(id: string): Promise<{ value: unknown; text: string }> {
    const value = await this.page.locator(`#${id}`).inputValue();
    const text = (await this.page.locator(`#select2-${id}-container`).innerText()).replace(/^×\s*/, '').trim();
    return { value: value === '' ? null : value, text };
  }

  /** `$('#id').select2('data')`: the options select2 holds for the selection. */
  selectedData(id: string): Promise<Record<string, unknown>[]> {
    return this.page.evaluate((sel) => {
      const $ = (window as unknown as { jQuery: (s: string) => { select2(m: string): Record<string, unknown>[] } })
        .jQuery;
      // element is a DOM node and cannot cross into Node
      return $(sel)
        .select2('data')
        .map(({ element: _element, ...rest }) => rest);
    }, `#${id}`);
  }

  /** Picks a System in the plain System select. */
  async setSystem(system: string): Promise<void> {
    await this.page.locator('#system').selectOption(system);
  }
}
