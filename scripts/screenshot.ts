// npm run screenshot: docs/demo.png, the README's picture. Builds the shipped
// sources/ into a temporary tree, serves the demo over it, walks the county
// cascade, picks a System and leaves an author search open.
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
    const page = await browser.newPage({ viewport: { width: 960, height: 550 }, deviceScaleFactor: 2 });
    const demo = new DemoPage(page);
    await demo.goto(url);
    await demo.choose('country', 'united st', 'United States');
    await demo.choose('state', 'calif', 'California');
    await demo.choose('county', 'los', 'Los Angeles');
    await demo.setSystem('gbif');
    await demo.open('author');
    await demo.type('smi');
    // The term's answer, not the list select2 showed on opening, and no "Searching…" row left.
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('#select2-author-results li.select2-results__option'));
      return rows.length > 8 && rows[0]!.textContent!.startsWith('Smit') && !document.querySelector('#select2-author-results .loading-results');
    });
    await page.locator('.select2-container--open .select2-search__field').evaluate((el) => (el as HTMLInputElement).blur());
    await page.screenshot({ path: OUT });
    console.log(`wrote ${OUT}`);
  } finally {
    await browser.close();
  }
} finally {
  server.current?.kill();
  rmSync(work, { recursive: true, force: true });
}
