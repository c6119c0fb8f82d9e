// A declared list of one's own, generated: `rows` institutions with string
// ids, a label template over two columns, a string and an integer field, and
// labels of some 35 characters and four words. What `npm run bench --
// declared` and `-- size` build: a user's own list of that size.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from './prng.js';

export function writeDeclared(dir: string, rows: number): void {
  const random = mulberry32(7);
  const WORDS = [
    'Museum',
    'Institute',
    'Herbarium',
    'Naturkunde',
    'Muséum',
    'Collection',
    'Garden',
    'Société',
    'Zoologisches',
    'Botanic',
  ];
  const CITIES = [
    'Berlin',
    'Paris',
    'München',
    'Chicago',
    'Tōkyō',
    'São Paulo',
    'Kraków',
    'Zürich',
    'Leiden',
    'Washington',
  ];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const lines = ['id,name,city,founded'];
  for (let i = 0; i < rows; i++) {
    const name = `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(random() * 1e6).toString(36)}`;
    lines.push(
      `X-${i.toString(36).toUpperCase().padStart(5, '0')},${name},${pick(CITIES)},${1500 + Math.floor(random() * 520)}`,
    );
  }
  writeFileSync(join(dir, 'institution.csv'), lines.join('\n') + '\n');
  writeFileSync(
    join(dir, 'reflist.config.json'),
    JSON.stringify({
      lists: {
        institution: {
          id: { column: 'id', type: 'string' },
          label: '{name} ({city})',
          fields: { city: 'string', founded: 'integer' },
        },
      },
    }),
  );
}
