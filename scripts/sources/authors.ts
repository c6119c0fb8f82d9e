// Family-name-first author labels from the pools in names.ts:
// "Smith, John A.", "Müller, J.", "García López, María", "Øvergaard, Søren",
// "Nguyễn, Văn An", "Иванова, Мария Петровна", "王, 伟", "田中, 太郎", "Ἀριστοτέλης".
import { GROUPS, MONONYMS, SYLLABLES, type NameGroup } from './names.js';
import { Zipf, pick, type Rng } from './prng.js';

const INITIALS = 'ABCDEFGHJKLMNPRSTVW';
// male patronymics; the female form ends in -на instead of -ич (Петрович → Петровна)
const PATRONYMS = [
  'Иванович',
  'Петрович',
  'Сергеевич',
  'Александрович',
  'Дмитриевич',
  'Николаевич',
  'Андреевич',
  'Михайлович',
  'Владимирович',
];

interface Pools {
  group: NameGroup;
  family: Zipf<string>;
  given: Zipf<string>;
  female?: Zipf<string>;
}

function pools(group: NameGroup): Pools {
  if (group.style === 'russian') {
    const bar = group.given.indexOf('|');
    return {
      group,
      family: new Zipf(group.family, 1),
      given: new Zipf(group.given.slice(0, bar), 0.8),
      female: new Zipf(group.given.slice(bar + 1), 0.8),
    };
  }
  return { group, family: new Zipf(group.family, 1), given: new Zipf(group.given, 0.8) };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function patronym(male: string, female: boolean): string {
  return female ? male.replace(/ич$/, 'на') : male;
}

function russianFamily(family: string, female: boolean): string {
  return female && /(ов|ев|ёв|ин)$/.test(family) ? `${family}а` : family;
}

export interface AuthorNamer {
  next(): string;
}

/**
 * `synthetic`: labels always have 2–3 words, no mononyms, and half of the
 * family names in groups with `suffixes` are invented ("Verkasen", "Kavosen") to give
 * a large corpus a long tail of distinct names.
 */
export function authorNamer(rng: Rng, synthetic: boolean): AuthorNamer {
  const all = GROUPS.map(pools);
  const groups = new Zipf(
    all,
    1,
    GROUPS.map((g) => g.weight),
  );
  const mononyms = new Zipf(MONONYMS, 0.7);

  function family(p: Pools): string {
    if (synthetic && p.group.suffixes && rng() < 0.5) {
      const n = 1 + Math.floor(rng() * 2);
      let s = '';
      for (let i = 0; i < n; i++) s += pick(rng, SYLLABLES);
      return capitalize(s) + pick(rng, p.group.suffixes);
    }
    return p.family.sample(rng);
  }

  function one(): string {
    if (!synthetic && rng() < 0.004) return mononyms.sample(rng);
    const p = groups.sample(rng);
    const g = p.group;
    switch (g.style) {
      case 'plain':
        return `${family(p)}, ${p.given.sample(rng)}`;
      case 'iberian': {
        const first = family(p);
        let second = rng() < 0.7 ? family(p) : '';
        if (second === first) second = '';
        return `${second ? `${first} ${second}` : first}, ${p.given.sample(rng)}`;
      }
      case 'russian': {
        const female = rng() < 0.45;
        const given = (female && p.female ? p.female : p.given).sample(rng);
        const tail = rng() < 0.3 ? ` ${patronym(pick(rng, PATRONYMS), female)}` : '';
        return `${russianFamily(family(p), female)}, ${given}${tail}`;
      }
      case 'western': {
        const fam = family(p);
        const given = p.given.sample(rng);
        const r = rng();
        if (g.initials && r < 0.12) {
          const second = rng() < 0.5 ? ` ${pick(rng, [...INITIALS])}.` : '';
          return `${fam}, ${given.charAt(0)}.${second}`;
        }
        if (g.initials && r < 0.4) return `${fam}, ${given} ${pick(rng, [...INITIALS])}.`;
        return `${fam}, ${given}`;
      }
    }
  }

  return {
    next(): string {
      for (;;) {
        const label = one();
        if (!synthetic) return label;
        const words = label.split(' ').length;
        if (words >= 2 && words <= 3) return label;
      }
    },
  };
}
