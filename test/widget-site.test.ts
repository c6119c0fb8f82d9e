// The widget docs' examples are what test/react-select.test.ts,
// tom-select.test.ts and choices.test.ts run; the README quotes one of them.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { docExample, WIDGETS } from './widget-site.js';

describe('the widget docs', () => {
  test.each(WIDGETS)('docs/%s.md has an example with html and a script that imports its adapter by name', (widget) => {
    const { html, script } = docExample(widget);
    expect(html).toMatch(/<(select|div) id="/);
    expect(script).toContain(`from 'reflist/${widget}'`);
    expect(script).toContain("from 'reflist/client'");
  });

  test('the README\'s Tom Select lines are lines of docs/tom-select.md\'s example, which runs in Chromium', () => {
    const readme = readFileSync('README.md', 'utf8');
    const quoted = /^## react-select, Tom Select, Choices\.js\n[\s\S]*?```js\n([\s\S]*?)```/m.exec(readme)?.[1];
    expect(quoted).toBeDefined();
    const lines = quoted!.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(5);
    const example = new Set(docExample('tom-select').script.split('\n'));
    expect(lines.filter((line) => !example.has(line))).toEqual([]);
  });
});
