// The README is a newcomer's first page: the two commands first, and short
// enough to read through, with docs/ for the rest.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const readme = readFileSync('README.md', 'utf8');

test('the README starts with the command that installs and builds, and the one that runs every test', () => {
  const first = /^```sh\n([\s\S]*?)```/m.exec(readme)![1]!;
  expect(
    first
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('#')[0]!.trim()),
  ).toEqual(['npm ci && npm run build', 'npm test']);
});

test('the README stays within 250 lines, with docs/ for the rest', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(250);
});
