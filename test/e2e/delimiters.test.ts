// A project's sources may be separated by commas, semicolons or tabs without
// declaring it (docs/sources.md, "Delimiters"): the header line says which.
// A declared delimiter is taken as declared, and a wrong one gets the hint.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/cli.js';
import { tempDir, writeSources } from '../helpers.js';

async function build(files: Record<string, string>) {
  let stderr = '';
  const out = join(tempDir(), 'dist');
  const code = await run(['build', '--sources', writeSources(tempDir(), files), '--out', out], {
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  return { code, stderr, out };
}

const CONFIG = JSON.stringify({
  lists: {
    country: { label: 'name', shape: 'whole' },
    city: { label: 'name', parent: { list: 'country', column: 'country_id' }, fields: { lat: 'number' } },
  },
});

describe('undeclared delimiters', () => {
  test('a semicolon file (decimal commas quoted in its rows) and a tab file build as a comma file would', async () => {
    const { code, stderr, out } = await build({
      'reflist.config.json': CONFIG,
      'country.csv': 'id\tname\n1\tÖsterreich\n2\tDeutschland\n',
      'city.csv': 'id;name;country_id;lat\n1;"Wien, Innere Stadt";1;48.2\n2;Graz;1;47.07\n3;Berlin;2;52.52\n',
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(readFileSync(join(out, 'country/1/city.json'), 'utf8'))).toEqual({
      total: 2,
      items: [
        { id: 2, text: 'Graz', lat: 47.07 },
        { id: 1, text: 'Wien, Innere Stadt', lat: 48.2 },
      ],
    });
    expect(
      JSON.parse(readFileSync(join(out, 'country.json'), 'utf8')).items.map((c: { text: string }) => c.text),
    ).toEqual(['Deutschland', 'Österreich']);
  });

  test('a declared delimiter wins over the header: a semicolon file declared as comma-separated gets the hint to declare semicolons', async () => {
    const { code, stderr } = await build({
      'reflist.config.json': JSON.stringify({ lists: { tag: { source: { file: 'tag.csv', delimiter: ',' } } } }),
      'tag.csv': 'id;text\n1;a\n',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'hint: tag.csv is separated by ";": declare "source": {"file": "tag.csv", "delimiter": ";"}',
    );
  });
});
