// Optional fields (docs/lists.md, "Labels and fields" and "Order"): an empty
// cell is null in the item, an order puts it last both ways, a searched text
// or column that is null matches as empty text, and a required field's empty
// cells end the report with one hint naming "optional": true.
import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/cli.js';
import { snapshotTree, startServe, tempDir, treeClient, writeSources } from '../helpers.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const FIELDS = {
  lat: { type: 'number', optional: true },
  pop: { column: 'population', type: 'integer', optional: true },
  nick: { type: 'string', optional: true },
};

const CONFIG = {
  lists: {
    // Most populous first: the states without a population after the least populous.
    state: { fields: FIELDS, order: ['-population'], search: { columns: ['nick'] } },
    // Least populous first: still last.
    smallest: { source: 'state.csv', fields: FIELDS, order: ['pop'] },
  },
};

// Alaska and Guam leave cells empty, one with white space alone.
const STATE_CSV = `id,text,lat,population,nick
1,Alabama,32.8,5024279,Yellowhammer State
2,Alaska,,  ,
3,Arizona,34.2,7151502,Grand Canyon State
4,Guam, , ,Island of Guam
5,Delaware,39,989948,First State
`;

const written = () => {
  const sources = writeSources(tempDir(), {
    'state.csv': STATE_CSV,
    'reflist.config.json': JSON.stringify(CONFIG),
  });
  return { sources, out: join(tempDir(), 'dist') };
};

describe('an optional field', async () => {
  const { sources, out } = written();
  const built = await cli(['build', '--sources', sources, '--out', out]);
  const server = await startServe(out);
  afterAll(() => server.stop());
  const client = await treeClient(out, { baseUrl: server.url });
  const names = async (url: string) =>
    ((await client.request(url)).body as { items: { text: string }[] }).items.map((i) => i.text);

  test('builds, an empty cell (or white space alone) being null under its key, in the keys order', async () => {
    expect(built.code, built.stderr).toBe(0);
    const { items } = (await client.request('/state.json')).body as { items: object[] };
    expect(items.find((i) => (i as { id: number }).id === 2)).toStrictEqual({
      id: 2,
      text: 'Alaska',
      lat: null,
      pop: null,
      nick: null,
    });
    expect(readFileSync(join(out, 'state.json'), 'utf8')).toContain(
      '{"id":2,"text":"Alaska","lat":null,"pop":null,"nick":null}',
    );
  });

  test('comes last in a descending order and in an ascending one', async () => {
    expect(await names('/state.json')).toEqual(['Arizona', 'Alabama', 'Delaware', 'Alaska', 'Guam']);
    expect(await names('/smallest.json')).toEqual(['Delaware', 'Alabama', 'Arizona', 'Alaska', 'Guam']);
  });

  test("a searched column that is null never matches, not even the Term 'null'", async () => {
    expect(await names('/state.json?Term=island')).toEqual(['Guam']);
    expect(await names('/state.json?Term=null')).toEqual([]);
  });
});

describe('a required field with empty cells', () => {
  test('fails the build at each empty cell, ends with one hint naming "optional": true, and leaves the tree as it was', async () => {
    const { sources, out } = written();
    expect((await cli(['build', '--sources', sources, '--out', out])).code).toBe(0);
    const before = snapshotTree(out);
    const required = {
      lists: { state: { fields: { lat: 'number', pop: { column: 'population', type: 'integer' } } } },
    };
    writeSources(sources, { 'reflist.config.json': JSON.stringify(required) });
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', out]);
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toContain('state.csv:3: lat: expected a decimal number, got ""');
    expect(lines).toContain('state.csv:5: population: expected an integer, got " "');
    const hints = lines.filter((l) => l.startsWith('hint: '));
    expect(hints).toEqual([
      'hint: if a row may leave "lat" empty, declare it optional: "fields": {"lat": {"type": "number", "optional": true}} (an empty cell is then null)',
      'hint: if a row may leave "pop" empty, declare it optional: "fields": {"pop": {"column": "population", "type": "integer", "optional": true}} (an empty cell is then null)',
    ]);
    expect(snapshotTree(out)).toEqual(before);
  });

  test('"optional" takes true or false', async () => {
    const { sources, out } = written();
    writeSources(sources, {
      'reflist.config.json': JSON.stringify({
        lists: { state: { fields: { lat: { type: 'number', optional: 'yes' } } } },
      }),
    });
    const { code, stderr } = await cli(['build', '--sources', sources, '--out', out]);
    expect(code).toBe(1);
    expect(stderr).toContain('lists.state.fields.lat.optional: expected true or false, got "yes"');
  });
});
