// The docs stay true to the code: every file docs/architecture.md names is
// there, it names every test file, what it says client/ imports holds, and
// what the package says it is names every drop-down it serves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../../src/cli.js';

const WIDGETS = ['select2', 'react-select', 'Tom Select', 'Choices.js'];
const TEST_PROJECTS = ['unit', 'property', 'e2e'];

/**
 * Each source file docs/architecture.md names (`x.ts`, `x.mjs`; a `.js` is a
 * built file), with the folder its section is about: a `### \`src/config/\``
 * heading's, `scripts/` for its scripts, `test/` for its tests.
 */
function namedFiles(): { name: string; folder: string }[] {
  let folder = '';
  const named: { name: string; folder: string }[] = [];
  for (const line of readFileSync('docs/architecture.md', 'utf8').split('\n')) {
    const heading = /^#+ (.*)/.exec(line)?.[1];
    if (heading !== undefined) {
      folder = /^`([\w/-]+)\/`/.exec(heading)?.[1] ?? (heading === 'Tests' ? 'test' : '');
      continue;
    }
    for (const [, name] of line.matchAll(/`([\w./-]+\.(?:ts|mjs))`/g))
      if (!name!.endsWith('.d.ts')) named.push({ name: name!, folder });
  }
  return named;
}

/** Where a name is: in its section's folder or a folder above it (`client/rank.ts` under `src/search/` is `src/client/rank.ts`). */
function resolveNamed(name: string, folder: string): string | undefined {
  // Outside a folder's section, a name is src/'s (`build.ts`, `plan/changes.ts`) or the project's.
  if (folder === '') return ['src', '.'].map((dir) => posix.join(dir, name)).find((path) => existsSync(path));
  // A test is in its project's folder, a helper in test/ itself.
  const test = TEST_PROJECTS.map((dir) => posix.join('test', dir, name)).find((path) => existsSync(path));
  if (folder === 'test' && test) return test;
  for (let dir = folder; ; dir = posix.dirname(dir)) {
    const path = posix.join(dir, name);
    if (existsSync(path)) return path;
    if (dir === '.' || dir === '') return undefined;
  }
}

test('every file docs/architecture.md names is in src/, test/ or scripts/', () => {
  const named = namedFiles();
  expect(named.length).toBeGreaterThan(100);
  expect(
    named.filter(({ name, folder }) => !resolveNamed(name, folder)).map(({ name, folder }) => `${folder}/: ${name}`),
  ).toEqual([]);
});

test('docs/architecture.md names every test file, so that its Tests section is the map of the tests', () => {
  const named = new Set(namedFiles().map(({ name }) => posix.basename(name)));
  const tests = TEST_PROJECTS.flatMap((dir) => readdirSync(`test/${dir}`)).filter((f) => f.endsWith('.test.ts'));
  expect(tests.length).toBeGreaterThan(60);
  expect(tests.filter((f) => !named.has(f))).toEqual([]);
});

test("client/ imports nothing outside itself but index.ts's re-export of widgets/select2.ts, as docs/architecture.md says", () => {
  const outside = readdirSync('src/client')
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) =>
      [...readFileSync(`src/client/${f}`, 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map((m) => `${f}: ${m[1]}`),
    );
  expect([...new Set(outside)]).toEqual(['index.ts: ../widgets/select2.js']);
  expect(readFileSync('docs/architecture.md', 'utf8')).toContain('re-exports\n   `widgets/select2.ts`');
});

test('package.json and reflist --help say reflist serves every drop-down it has an adapter for', async () => {
  const { description } = JSON.parse(readFileSync('package.json', 'utf8')) as { description: string };
  let help = '';
  expect(await run(['--help'], { stdout: (text) => (help += text), stderr: (text) => (help += text) })).toBe(0);
  for (const text of [description, help]) for (const widget of WIDGETS) expect(text).toContain(widget);
});
