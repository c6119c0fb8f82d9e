import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importsOf, violation } from '../../scripts/imports.js';

const src = join(import.meta.dirname, '../..', 'src');

describe('the pipeline imports forward only', () => {
  it('no module of src/ imports a later stage, and scripts/imports.ts says so with exit 0', () => {
    const bad = importsOf(src).filter((i) => violation(i));
    expect(bad.map((i) => `src/${i.from}:${i.line}: ${i.text}`)).toEqual([]);
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/imports.ts'], {
      cwd: join(src, '..'),
      encoding: 'utf8',
    });
    expect(out).toContain('no import runs against the pipeline, and no module imports itself around a cycle');
  });

  it('no module imports itself around a cycle, type imports included, and a cycle is named by its modules', () => {
    expect(cyclesOf(importsOf(src))).toEqual([]);
    const at = (from: string, to: string) => ({ from, to, line: 1, text: '' });
    // A reader that imports the declaration's types back, and two modules that import each other.
    expect(
      cyclesOf([
        at('config/declaration.ts', 'config/fields.ts'),
        at('config/fields.ts', 'config/spec.ts'),
        at('config/fields.ts', 'config/declaration.ts'),
        at('render/hosts.ts', 'render/nginx.ts'),
        at('render/nginx.ts', 'render/hosts.ts'),
        at('render/nginx.ts', 'render/host-rules.ts'),
      ]),
    ).toEqual([
      ['config/declaration.ts', 'config/fields.ts'],
      ['render/hosts.ts', 'render/nginx.ts'],
    ]);
  });

  it('an import of a later stage is named, type imports and multi-line ones too', () => {
    expect(violation({ from: 'plan/plan.ts', to: 'render/render.ts', line: 1, text: '' })).toMatch(
      /plan .* imports render, a later stage/,
    );
    expect(violation({ from: 'config/declaration.ts', to: 'write/fit.ts', line: 1, text: '' })).toMatch(
      /imports write/,
    );
    expect(violation({ from: 'search/index.ts', to: 'render/render.ts', line: 1, text: '' })).toMatch(
      /search\/ is called by render\//,
    );
    expect(violation({ from: 'client/client.ts', to: 'errors.ts', line: 1, text: '' })).toMatch(
      /imports client\/ alone/,
    );
    expect(violation({ from: 'render/plan.ts', to: 'plan/plan.ts', line: 1, text: '' })).toBeUndefined();
    const found = importsOf(src);
    // answer.ts imports its types over several lines; plan.ts imports a type.
    expect(found.some((i) => i.from === 'client/answer.ts' && i.to === 'client/types.ts')).toBe(true);
    expect(
      found.some((i) => i.from === 'plan/plan.ts' && i.to === 'plan/cache.ts' && i.text.startsWith('import type')),
    ).toBe(true);
  });
});
