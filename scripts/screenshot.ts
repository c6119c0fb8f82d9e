// npm run screenshot: docs/demo.png, the README's picture. Builds the shipped
// sources/ into a temporary tree, serves the demo over it, walks the county
// cascade, picks a System, a division and an author in two other widgets, and
// leaves a Tom Select search open.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../src/build.js';
import { DemoPage, launchChromium } from './demo-page.js';
import { assemblePreview, servePreview, waitForServer } from './preview.js';

const OUT = 'docs/demo.png';
const PORT = 8097;

const work = mkdtempSync(join(tmpdir(), 'reflist-screenshot-'));
const server = { current: undefined as ReturnType<typeof servePreview> | undefined };
try {
  await build({ sources: 'sources', out: join(work, 'tree'), pageSize: 30 });
  assemblePreview(join(work, 'tree'), join(work, 'site'));
  server.current = servePreview(join(work, 'site'), PORT, 'ignore', true);
  const url = `http://127.0.0.1:${PORT}/`;
  await waitForServer(url);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 960, height: 760 }, deviceScaleFactor: 2 });
    const demo = new DemoPage(page);
    await demo.goto(url);
    await demo.choose('country', 'united st', 'United States');
    await demo.choose('state', 'calif', 'California');
    await demo.choose('county', 'los', 'Los Angeles');
    await demo.setSystem('gbif');
    // The other widgets: one choice in react-select and Choices.js, and Tom Select left open on a search.
    const pick = async (control: string, term: string, option: string) => {
      await page.locator(control).click();
      await page.keyboard.type(term, { delay: 20 });
      await page.locator(option).first().waitFor();
      await page.waitForTimeout(400); // the term's answer, not the list shown on opening
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
    };
    await pick('#react-select-author', 'müller a', '#widgets [role=option]');
    await pick('#widgets .choices', 'wang j', '#widgets .choices__item--choice');
    await demo.choose('division', 'aves', 'Aves (34)');
    await page.locator('#tom-select-author-ts-control').click();
    await page.keyboard.type('smi', { delay: 20 });
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('#tom-select-author-ts-dropdown .option'));
      return rows.length > 8 && rows[0]!.textContent!.startsWith('Smit');
    });
    await page.screenshot({ path: OUT });
    console.log(`wrote ${OUT}`);
  } finally {
    await browser.close();
  }
} finally {
  server.current?.kill();
  rmSync(work, { recursive: true, force: true });
}
