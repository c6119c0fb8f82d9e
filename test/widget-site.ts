// The drop-down adapters' examples as a site: each docs page's example
// (docs/react-select.md, tom-select.md, choices.md), as written, bundled by
// esbuild with the real widget from node_modules, beside a tree of the
// shipped sources at /lookup/. test/react-select.test.ts, tom-select.test.ts
// and choices.test.ts drive it in Chromium; scripts/bench-widgets.ts measures it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as bundle } from 'esbuild';
import { build } from '../src/build.js';
import { LOOKUP_SERVICE_CONFIG } from '../src/config/preset.js';
import { checkConfig } from '../src/config/declaration.js';
import { createDeclaredReference } from './reference-declared.js';

export const WIDGETS = ['react-select', 'tom-select', 'choices'] as const;
export type Widget = (typeof WIDGETS)[number];

export const PAGE_SIZE = 30;
const ROOT = join(import.meta.dirname, '..');

/** The html and the script of a docs page's `## Example`, as written. */
export function docExample(widget: Widget): { html: string; script: string; loader: 'js' | 'jsx' } {
  const page = readFileSync(join(ROOT, 'docs', `${widget}.md`), 'utf8');
  const example = /^## Example\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
  const html = /```html\n([\s\S]*?)```/.exec(example)?.[1];
  const script = /```(jsx?)\n([\s\S]*?)```/.exec(example);
  if (html === undefined || !script) throw new Error(`docs/${widget}.md: "## Example" needs an html and a js or jsx block`);
  return { html, script: script[2]!, loader: script[1] as 'js' | 'jsx' };
}

/**
 * Writes the site into `dir`: `lookup/` (the tree, PAGE_SIZE a page) and for
 * each widget `<widget>/index.html` loading `app.js` (and `app.css`), the
 * docs example bundled as an app would bundle it; `reflist/...` resolves to
 * this package's own exports (lib/, so compile first). A folder's index, so
 * that `/tom-select/?author=1007` keeps its query on any static server.
 */
export async function writeWidgetSite(dir: string): Promise<void> {
  await build({ sources: join(ROOT, 'sources'), out: join(dir, 'lookup'), pageSize: PAGE_SIZE });
  await Promise.all(WIDGETS.map(async (widget) => {
    const { html, script, loader } = docExample(widget);
    const result = await bundle({
      stdin: { contents: script, resolveDir: ROOT, loader, sourcefile: `docs/${widget}.md` },
      bundle: true, format: 'esm', target: 'es2022', jsx: 'automatic', minify: true, outdir: join(dir, widget),
      entryNames: 'app', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'error', metafile: true,
    });
    const css = Object.keys(result.metafile.outputs).some((out) => out.endsWith('.css'));
    mkdirSync(join(dir, widget), { recursive: true });
    writeFileSync(join(dir, widget, 'index.html'), `<!doctype html><meta charset="utf-8"><title>${widget}</title>\n`
      + (css ? '<link rel="stylesheet" href="app.css">\n' : '')
      + `<style>body { font: 14px system-ui; width: 420px; margin: 16px; } select, .ts-wrapper, .choices { margin-bottom: 12px; }</style>\n`
      + `${html}<script type="module" src="app.js"></script>\n`);
  }));
}

/** The reference's answer for `url` over the shipped sources: what every widget must show. */
export function shippedReference(): (url: string) => { status: number; body: unknown } {
  const { declaration } = checkConfig(LOOKUP_SERVICE_CONFIG, 'reflist.config.json');
  const files = Object.fromEntries(declaration!.lists.flatMap((l) => [l.source, l.counts?.source, declaration!.groups?.source])
    .flatMap((s) => (s ? [[s.file, readFileSync(join(ROOT, 'sources', s.file), 'utf8')]] : [])));
  return createDeclaredReference(declaration!, files, PAGE_SIZE);
}
