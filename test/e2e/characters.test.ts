// docs/examples.md's character picker on the full real data (159,801 Unicode
// names): its commands run as the page writes them, then the requests of its
// table asked through the client over a static server, each answer as the
// table says it.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LookupClient } from '../../src/client/client.js';
import { startServe, tempDir, treeClient, type Running } from '../helpers.js';

type Char = { id: number; text: string; name: string; char: string; code: string; cp: number };
type Page = { total: number; items: Char[] };

const root = tempDir('reflist-characters-');
let server: Running;
let client: LookupClient;

const page = readFileSync('docs/examples.md', 'utf8');
const section = /\n## A character picker\n([\s\S]*?)(?=\n## |$)/.exec(page)![1]!;
/** The section's sh block: the two commands a reader runs, with this test's folder for /tmp/pickers. */
const commands = /```sh\n([\s\S]*?)```/.exec(section)![1]!.trim().split('\n');

beforeAll(async () => {
  for (const line of commands) execSync(line.replaceAll('/tmp/pickers', root), { stdio: 'pipe' });
  server = await startServe(root);
  client = await treeClient(`${root}/characters-dist`, { baseUrl: `${server.url}characters-dist/` });
}, 180_000);
afterAll(() => server?.stop());

const ask = async (url: string) => {
  const answer = await client.request(url);
  expect(answer.status).toBe(200);
  return answer.body as Page;
};
/** Every item of a Term's answer, page after page. */
const every = async (url: string) => {
  const items: Char[] = [];
  for (let n = 1; ; n++) {
    const { total, items: more } = await ask(`${url}&Page=${n}`);
    items.push(...more);
    if (items.length >= total || more.length === 0) return items;
  }
};
const codes = (items: Char[]) => items.map((c) => c.code);
const byCodePoint = (items: Char[]) => items.map((c) => c.cp).every((cp, i, all) => i === 0 || all[i - 1]! < cp);

test('the section gives the two commands, the script and the built CLI', () => {
  expect(commands.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
    'npx tsx scripts/examples/characters.ts',
    'node lib/cli.js build',
  ]);
});

test('the config the section shows is the one the script wrote', () => {
  const shown = /`\/tmp\/pickers\/characters\/reflist\.config\.json`[^\n]*\n\n```json\n([\s\S]*?)```/.exec(
    section,
  )![1]!;
  expect(JSON.parse(shown)).toEqual(JSON.parse(readFileSync(`${root}/characters/reflist.config.json`, 'utf8')));
});

test('the table asks the requests this file asks, in its order', () => {
  const asked = [...section.matchAll(/^\| `(\/char\.json\?[^`]*)`/gm)].map((m) => m[1]);
  expect(asked).toEqual(Object.keys(TABLE));
});

test('every named character is an item in code point order, a mark on a dotted circle and a blank as a dotted square', async () => {
  const first = await ask('/char.json');
  expect(first.total).toBe(159801);
  expect(first.items.slice(0, 2).map((c) => c.text)).toEqual(['⬚ SPACE', '! EXCLAMATION MARK']);
  expect((await ask('/char.json?Id=233')).items).toEqual([
    {
      id: 233,
      text: 'é LATIN SMALL LETTER E WITH ACUTE',
      name: 'LATIN SMALL LETTER E WITH ACUTE',
      char: 'é',
      code: 'U+00E9',
      cp: 233,
    },
  ]);
  const [acute, zwsp, yi, ga] = await Promise.all(
    [769, 8203, 19968, 44032].map(async (id) => (await ask(`/char.json?Id=${id}`)).items[0]),
  );
  expect(acute).toMatchObject({ char: '\u25CC\u0301', name: 'COMBINING ACUTE ACCENT' });
  expect(zwsp).toMatchObject({ char: '⬚', name: 'ZERO WIDTH SPACE', code: 'U+200B' });
  expect([yi!.text, ga!.text]).toEqual(['一 CJK UNIFIED IDEOGRAPH-4E00', '가 HANGUL SYLLABLE GA']);
});

/** docs/examples.md's table: each request, what it answers, and where the character a person means comes. */
const TABLE: Record<string, (items: Char[]) => void> = {
  '/char.json?Term=e%20acute': (items) => {
    expect(codes(items)).toEqual(['U+00C9', 'U+00E9', 'U+1E16', 'U+1E17', 'U+1EBE', 'U+1EBF']);
  },
  '/char.json?Term=latin%20small%20letter%20e': (items) => {
    expect(items).toHaveLength(103);
    expect(items.slice(0, 3).map((c) => c.char)).toEqual(['e', 'è', 'é']);
    expect(items.slice(0, 50).every((c) => c.name.startsWith('LATIN SMALL LETTER E'))).toBe(true);
    expect(items.slice(50, 57).every((c) => / LATIN SMALL LETTER E/.test(c.name))).toBe(true);
    expect(items.find((c) => c.code === 'U+24D4')!.name).toBe('CIRCLED LATIN SMALL LETTER E');
    expect(items[57]!.name).toBe('LATIN SMALL LETTER TURNED E');
    // Last, the tags whose name lacks a word starting with "e": their code (U+E0061) has it.
    const tags = items.slice(78);
    expect(tags.map((c) => c.name)).toEqual(
      [...'abcdfghijklmnopqrstuvwxyz'].map((l) => `TAG LATIN SMALL LETTER ${l.toUpperCase()}`),
    );
    expect([tags[0]!.code, tags.at(-1)!.code]).toEqual(['U+E0061', 'U+E007A']);
  },
  '/char.json?Term=arrow%20left': (items) => {
    expect(items).toHaveLength(187);
    expect(codes(items.slice(0, 6))).toEqual(['U+21C5', 'U+21F5', 'U+2B81', 'U+2B83', 'U+2BB4', 'U+2BB6']);
    expect(items[0]!.name).toBe('UPWARDS ARROW LEFTWARDS OF DOWNWARDS ARROW');
    expect(items[4]!.name).toBe('RIBBON ARROW LEFT UP');
    expect(items[6]!.name).toBe('MODIFIER LETTER LEFT ARROWHEAD');
    expect(items[18]).toMatchObject({ text: '← LEFTWARDS ARROW', code: 'U+2190' });
    expect(byCodePoint(items.slice(6))).toBe(true);
  },
  '/char.json?Term=leftwards%20arrow': (items) => {
    expect(items).toHaveLength(138);
    expect(items.slice(0, 2).map((c) => c.text)).toEqual(['← LEFTWARDS ARROW', '↚ LEFTWARDS ARROW WITH STROKE']);
  },
  '/char.json?Term=arrow%20lefft': async (items) => {
    // The typo answer holds what the Term as typed right would, in list order: no tiers.
    const right = await every('/char.json?Term=arrow%20left');
    expect(items.map((c) => c.id)).toEqual(right.map((c) => c.id).sort((a, b) => a - b));
    expect(items[0]!.name).toBe('MODIFIER LETTER LEFT ARROWHEAD');
    expect(items[12]!.name).toBe('LEFTWARDS ARROW');
  },
  '/char.json?Term=arow%20lefft': (items) => {
    expect(items).toEqual([]);
  },
  '/char.json?Term=grining%20face': (items) => {
    expect(items.map((c) => c.char)).toEqual(['😀', '😁', '😸', '🤩', '🤪']);
    expect(items[0]!.name).toBe('GRINNING FACE');
  },
  '/char.json?Term=u%2B00e9': (items) => {
    expect(items.map((c) => c.text)).toEqual(['é LATIN SMALL LETTER E WITH ACUTE']);
  },
  '/char.json?Term=u%2B2190': (items) => {
    expect(items[0]!.text).toBe('← LEFTWARDS ARROW');
    expect(codes(items.slice(1))).toEqual(
      Array.from({ length: 16 }, (_, i) => `U+2190${i.toString(16).toUpperCase()}`),
    );
  },
  '/char.json?Term=acute%20u%2B00e9': (items) => {
    expect(items.map((c) => c.code)).toEqual(['U+00E9']);
  },
};

for (const [url, check] of Object.entries(TABLE))
  test(`${decodeURIComponent(url)} answers what the table says`, async () => {
    await check(await every(url));
  });

test('4e00 finds 一 and hangul syllable ga finds 가, each first, though their names are made from their code and their sound', async () => {
  expect((await ask('/char.json?Term=4e00')).items[0]!.char).toBe('一');
  expect((await ask('/char.json?Term=hangul%20syllable%20ga')).items[0]!.char).toBe('가');
});

test('u 00e9 is the same Term as u+00e9: fold makes the + a space', async () => {
  expect(await ask('/char.json?Term=u%2000e9')).toEqual(await ask('/char.json?Term=u%2B00e9'));
});
