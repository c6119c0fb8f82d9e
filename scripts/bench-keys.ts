// npm run bench -- keys [--against REV]: what a keystroke costs when people
// type as they do: real multi-word queries, in the items' order and not,
// some with a typo, typed a character at a time through the client each tree
// carries (a fresh page visit a query), over the real cities (the city picker
// of scripts/examples/cities.ts), the Unicode character names (characters.ts)
// and WordNet's glosses (wordnet.ts), each built by this tree and by REV
// (536b582 by default) in a temporary clone; and the lookup service's
// generated authors, their labels' word starts typed as before
// (bench-size.ts's typing). For each: the requests a keystroke makes (the
// share making at most one, at most two, the most), and the bytes it reads
// as stored (median, 95th percentile and most, over every keystroke and over
// those that read anything), for one-word Terms apart from Terms of several
// words or with a typo.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fold } from '../src/client/fold.js';
import { tempDir } from '../test/helpers.js';
import { buildWith, cliAt, counted, typing } from './bench-size.js';
import { writeCharConfig, writeCharSources } from './examples/characters.js';
import { writeCityConfig, writeCitySources } from './examples/cities.js';
import { writeWordConfig, writeWordSources } from './examples/wordnet.js';
import { writeSynthetic } from './sources.js';
import { kb, pct, quantile } from './format.js';

/**
 * Queries a person types into each picker: what they look for, in its own
 * order and not, and (after `|`) the same with a typo a hand makes. A query's
 * keystrokes after its typo are typo keystrokes.
 */
export const QUERIES: Record<'cities' | 'characters' | 'wordnet', string[]> = {
  cities: [
    'new york',
    'york new',
    'san francisco',
    'francisco san',
    'los angeles',
    'rio de janeiro',
    'saint petersburg',
    'buenos aires',
    'mexico city',
    'la paz',
    'santa cruz de la sierra',
    'port au prince',
    'kuala lumpur',
    'ho chi minh city',
    'frankfurt am main',
    'sao paulo',
    'las vegas',
    'salt lake city',
    'san jose',
    'el paso',
    'new delhi',
    'saint louis',
    'cape town',
    'hong kong',
    'tel aviv',
    'abu dhabi',
    'dar es salaam',
    'lumpur kuala',
    'paulo sao',
    'vegas las',
    '|san fransisco',
    '|los angelos',
    '|buenos airse',
    '|kaula lumpur',
    '|frankfrut am main',
    '|philadelpia',
    '|sant petersburg',
  ],
  characters: [
    'e acute',
    'arrow left',
    'left arrow',
    'latin small letter e with acute',
    'greek capital letter omega',
    'omega greek',
    'black heart suit',
    'smiling face with smiling eyes',
    'face with tears of joy',
    'euro sign',
    'check mark',
    'white star',
    'hangul syllable ga',
    'cyrillic small letter zhe',
    'arabic letter alef',
    'devanagari letter ka',
    'double arrow right',
    'mathematical bold capital a',
    'box drawings light horizontal',
    'musical symbol g clef',
    'snowman',
    'copyright sign',
    'degree celsius',
    'cjk ideograph 4e00',
    'a grave',
    'n tilde',
    '|smilling face',
    '|cyrilic small letter',
    '|arabic leter alef',
    '|copyrigth sign',
    '|greek capital leter omega',
  ],
  wordnet: [
    'small dog',
    'capital of france',
    'river in africa',
    'large bird of prey',
    'dog breed',
    'musical instrument with strings',
    'disease of the liver',
    'tree with white flowers',
    'someone who works',
    'the act of running',
    'genus of plants',
    'city in california',
    'large cat',
    'feeling of fear',
    'tool for cutting',
    'young horse',
    'small boat',
    'fruit of the apple tree',
    'heart disease',
    'red color',
    '|pnemonia',
    '|asthama',
    '|feeling of feer',
    '|musical instrumnet',
    '|tree with whte flowers',
    '|capitol of france',
  ],
};

interface Keystroke {
  requests: number;
  bytes: number;
  /** Several words, or past a typo. */
  many: boolean;
}

/** Each query typed a character at a time into `list` of `tree`, a fresh visit each. */
export async function typeQueries(tree: string, list: string, queries: readonly string[]): Promise<Keystroke[]> {
  const { tally, visit } = await counted(tree);
  const out: Keystroke[] = [];
  for (const query of queries) {
    const typo = query.startsWith('|');
    const text = typo ? query.slice(1) : query;
    const client = visit();
    await client.manifest();
    for (let i = 1; i <= text.length; i++) {
      const [r0, b0] = [tally.requests, tally.bytes];
      const term = text.slice(0, i);
      const { status } = await client.request(`/${list}.json?Term=${encodeURIComponent(term)}`);
      if (status !== 200) throw new Error(`${list} ${term}: ${status}`);
      out.push({ requests: tally.requests - r0, bytes: tally.bytes - b0, many: typo || fold(term).includes(' ') });
    }
  }
  return out;
}

/** The figures of some keystrokes. */
function figures(ks: readonly Keystroke[]) {
  const reading = ks.filter((k) => k.requests > 0).map((k) => k.bytes);
  const all = ks.map((k) => k.bytes);
  return {
    keystrokes: ks.length,
    atMostOne: ks.filter((k) => k.requests <= 1).length,
    atMostTwo: ks.filter((k) => k.requests <= 2).length,
    most: Math.max(0, ...ks.map((k) => k.requests)),
    all: { median: quantile(all, 0.5), p95: quantile(all, 0.95), max: Math.max(0, ...all) },
    reading: { median: quantile(reading, 0.5), p95: quantile(reading, 0.95), max: Math.max(0, ...reading) },
  };
}

function row(corpus: string, side: string, what: string, f: ReturnType<typeof figures>): string {
  return `| ${corpus} | ${side} | ${what} | ${f.keystrokes} | ${pct(f.atMostOne, f.keystrokes)} | ${pct(f.atMostTwo, f.keystrokes)} | ${f.most} | ${kb(f.all.median)} / ${kb(f.all.p95)} / ${kb(f.all.max)} | ${kb(f.reading.median)} / ${kb(f.reading.p95)} / ${kb(f.reading.max)} |`;
}

export async function keysBench(
  options: { against: string },
  toDocs: (name: string, lines: string[]) => void,
): Promise<void> {
  const base = cliAt(options.against);
  const here = join(process.cwd(), 'lib/cli.js');
  const corpora: [name: keyof typeof QUERIES, list: string, write: (dir: string) => void][] = [
    [
      'cities',
      'city',
      (dir) => {
        writeCitySources(dir);
        writeCityConfig(dir, 'picker');
      },
    ],
    [
      'characters',
      'char',
      (dir) => {
        writeCharSources(dir);
        writeCharConfig(dir);
      },
    ],
    [
      'wordnet',
      'word',
      (dir) => {
        writeWordSources(dir);
        writeWordConfig(dir);
      },
    ],
  ];
  const lines = [
    `\`npm run bench -- keys\`, ${new Date().toISOString().slice(0, 10)}: real queries typed a character at a time, a fresh visit each; REV is ${base.title}. A keystroke's requests after lookup.json, and its bytes as stored (median / p95 / most), over every keystroke and over those that read a file:`,
    '',
    '| corpus | tree | Terms | keystrokes | ≤ 1 request | ≤ 2 requests | most | bytes, every keystroke | bytes, keystrokes that read |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  try {
    for (const [name, list, write] of corpora) {
      const sources = tempDir(`keys-${name}-`);
      write(sources);
      for (const [side, cli] of [
        ['REV', base.cli],
        ['now', here],
      ] as const) {
        const out = tempDir(`keys-${name}-out-`);
        buildWith(cli, sources, out);
        const ks = await typeQueries(out, list, QUERIES[name]);
        lines.push(row(name, side, 'one word', figures(ks.filter((k) => !k.many))));
        lines.push(row(name, side, 'several words or a typo', figures(ks.filter((k) => k.many))));
        lines.push(row(name, side, 'every one', figures(ks)));
        rmSync(out, { recursive: true, force: true });
      }
      rmSync(sources, { recursive: true, force: true });
    }
    // The lookup service, its labels' word starts typed as before: the phrase rule, unchanged.
    const sources = tempDir('keys-preset-');
    await writeSynthetic(sources, {
      authors: 100_000,
      descriptors: 20_000,
      divisions: 500,
      categories: 4_000,
      systems: 3,
      seed: 1,
    });
    for (const [side, cli] of [
      ['REV', base.cli],
      ['now', here],
    ] as const) {
      const out = tempDir('keys-preset-out-');
      buildWith(cli, sources, out);
      const t = await typing(out);
      lines.push(
        `| preset (100,000 authors) | ${side} | labels' word starts | ${t.keystrokes} | | | ${t.most} | | ${kb(t.bytes.median)} / ${kb(t.bytes.p95)} / ${kb(t.bytes.max)} |`,
      );
      rmSync(out, { recursive: true, force: true });
    }
    rmSync(sources, { recursive: true, force: true });
  } finally {
    rmSync(base.dir, { recursive: true, force: true });
  }
  console.log(lines.join('\n'));
  toDocs('keys', lines);
}
