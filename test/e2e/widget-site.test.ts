// The widget docs' examples are what test/e2e/react-select.test.ts,
// tom-select.test.ts and choices.test.ts follow and run; the README quotes one of them.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { docBlock, docExample, WIDGETS } from '../widget-site.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const SCRIPT = { 'react-select': 'app.jsx', 'tom-select': 'app.js', choices: 'app.js' } as const;

describe('the widget docs', () => {
  test.each(WIDGETS)(
    "docs/%s.md's example goes from an empty folder to a served page: install, the tree at /lookup/, the page, the script, the bundle, serving",
    (widget) => {
      expect(docExample(widget).map((b) => b.name)).toEqual([
        'install',
        'tree',
        'public/index.html',
        SCRIPT[widget],
        'bundle',
        'serve',
      ]);
      // The tarball `npm pack` writes, the widget at its major version.
      expect(docBlock(widget, 'install').code).toMatch(
        new RegExp(
          `^npm install \\./reflist-${version.replaceAll('.', '\\.')}\\.tgz .*\\b${widget.replace('.', '\\.')}`,
        ),
      );
      expect(docBlock(widget, 'tree').code).toContain('--out public/lookup');
      const script = docBlock(widget, SCRIPT[widget]).code;
      expect(script).toContain("baseUrl: '/lookup/'");
      expect(script).toContain(`from 'reflist/${widget}'`);
      expect(script).toContain("from 'reflist/client'");
      // The script awaits at its top level: an ES module, bundled as one.
      expect(script).toMatch(/^\S.*\bawait /m);
      const html = docBlock(widget, 'public/index.html').code;
      expect(html).toContain('<script type="module" src="app.js"></script>');
      if (/^import '.*\.css';$/m.test(script)) expect(html).toContain('<link rel="stylesheet" href="app.css">');
      const bundle = docBlock(widget, 'bundle').code;
      expect(bundle).toMatch(
        new RegExp(`^npx esbuild ${SCRIPT[widget].replace('.', '\\.')} --bundle --format=esm .*--outdir=public\\n$`),
      );
      if (SCRIPT[widget].endsWith('.jsx')) expect(bundle).toContain('--jsx=automatic');
    },
  );

  test("the README's Tom Select lines are lines of docs/tom-select.md's example, which runs in Chromium", () => {
    const readme = readFileSync('README.md', 'utf8');
    const quoted = /^## react-select, Tom Select, Choices\.js\n[\s\S]*?```js\n([\s\S]*?)```/m.exec(readme)?.[1];
    expect(quoted).toBeDefined();
    const lines = quoted!.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(5);
    const example = new Set(docBlock('tom-select', 'app.js').code.split('\n'));
    expect(lines.filter((line) => !example.has(line))).toEqual([]);
  });
});
