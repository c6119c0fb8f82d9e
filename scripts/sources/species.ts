// A corpus shaped like the GBIF Backbone Taxonomy's scientific names, for
// `npm run bench -- scale` (bench-scale.ts): `rows` species at any size up to
// ten million and more, written as a stream, never held as one string.
//
// - species.csv  id (1..rows), canonical (`Quercus robur`, `Quercus robur
//                subsp. pedunculata`, with `var.` and `f.` too), authorship
//                (`L., 1753`, `(Linnaeus, 1771)`), rank (species, subspecies,
//                variety, form), rank_level (1 to 4, in that order) and
//                family_id
// - family.csv   id, name (`Fagaceae`, `Felidae`, invented ones after the real)
//
// Genera are Zipf-distributed (a Zipf–Mandelbrot law, P(rank r) ∝ 1/(r + q)):
// real large genera first (Hieracium, Astragalus, Carex, …, thousands of
// species at a million rows), then invented ones, down to a long tail of
// genera with one species. Authors are Zipf-distributed the same way, each
// with the years he or she published in; epithets come from real common ones
// (alba, vulgaris, …) and then from Latin-ish stems, joins and endings, so
// there are many distinct ones. Every genus belongs to one family, so every
// species does. Deterministic from the seed.
import { closeSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CsvWriter, writeTable } from './csv.js';
import { mulberry32, pick, stream, type Rng } from './prng.js';

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** Large real genera, largest first, each with its family. */
const REAL_GENERA: [genus: string, family: string][] = words(`
  Hieracium:Asteraceae Astragalus:Fabaceae Carex:Cyperaceae Euphorbia:Euphorbiaceae Solanum:Solanaceae
  Rubus:Rosaceae Senecio:Asteraceae Taraxacum:Asteraceae Bulbophyllum:Orchidaceae Salix:Salicaceae
  Eugenia:Myrtaceae Piper:Piperaceae Dendrobium:Orchidaceae Psychotria:Rubiaceae Miconia:Melastomataceae
  Begonia:Begoniaceae Acacia:Fabaceae Quercus:Fagaceae Rhododendron:Ericaceae Ficus:Moraceae
  Ipomoea:Convolvulaceae Croton:Euphorbiaceae Crotalaria:Fabaceae Peperomia:Piperaceae Syzygium:Myrtaceae
  Eucalyptus:Myrtaceae Agrilus:Buprestidae Conus:Conidae Drosophila:Drosophilidae Megaselia:Phoridae
  Aphodius:Scarabaeidae Lasioglossum:Halictidae Andrena:Andrenidae Bombus:Apidae Camponotus:Formicidae
  Pheidole:Formicidae Cortinarius:Cortinariaceae Russula:Russulaceae Inocybe:Inocybaceae
  Cladonia:Cladoniaceae Rosa:Rosaceae Prunus:Rosaceae Pinus:Pinaceae Allium:Amaryllidaceae
  Silene:Caryophyllaceae Ranunculus:Ranunculaceae Viola:Violaceae Campanula:Campanulaceae
  Centaurea:Asteraceae Galium:Rubiaceae Trifolium:Fabaceae Vaccinium:Ericaceae Saxifraga:Saxifragaceae
  Sedum:Crassulaceae Primula:Primulaceae Gentiana:Gentianaceae Pedicularis:Orobanchaceae
  Potentilla:Rosaceae Oxalis:Oxalidaceae Polygala:Polygalaceae Carabus:Carabidae Bembidion:Carabidae
  Papilio:Papilionidae Anolis:Dactyloidae Pristimantis:Strabomantidae Myotis:Vespertilionidae
  Crocidura:Soricidae Rattus:Muridae Turdus:Turdidae Lepidium:Brassicaceae Draba:Brassicaceae
  Cyperus:Cyperaceae Juncus:Juncaceae Poa:Poaceae Festuca:Poaceae Eragrostis:Poaceae Panicum:Poaceae
  Stipa:Poaceae Pieris:Pieridae Hyla:Hylidae Rana:Ranidae Sorex:Soricidae Mustela:Mustelidae
  Ursus:Ursidae Mus:Muridae Parus:Paridae Canis:Canidae Vulpes:Canidae Panthera:Felidae Felis:Felidae
  Puma:Felidae`).map((pair) => pair.split(':') as [string, string]);

/** Common real epithets, most common first. */
const REAL_EPITHETS = words(`
  elegans minor gracilis major alba vulgaris japonica sinensis chinensis americana affinis similis
  montana alpina sylvestris officinalis australis borealis orientalis occidentalis maritima palustris
  aquatica arvensis pratensis campestris nemorosa sylvatica rubra nigra viridis lutea aurea purpurea
  violacea caerulea rosea grandiflora parviflora latifolia angustifolia longifolia macrophylla
  microphylla tomentosa pubescens glabra hirsuta villosa spinosa mollis robusta tenuis pumila nana
  gigantea elata erecta repens scandens variabilis mexicana brasiliensis peruviana indica capensis
  canadensis virginiana californica texana floridana hispanica italica gallica germanica anglica robur
  petraea concolor catus canina lupus vulpes domestica communis pallida obscura simplex ovata
  lanceolata cordata rotundifolia serrata crispa undulata reticulata striata maculata punctata
  fasciata lineata bicolor tricolor versicolor multiflora uniflora racemosa paniculata umbellata
  capitata spicata ciliata barbata cristata cornuta dentata sessilis pedunculata acuminata obtusa
  acuta minima maxima media intermedia dubia ambigua hybrida wallichii hookeri forrestii davidii
  wilsonii smithii fortunei thunbergii sieboldii linnaei darwinii humboldtii`);

// Invented epithets: a stem, a join and an ending (`albiflora`, `leptophyllus`), then after another stem
// (`nigroalba`, `leucoflavescens`).
const EPITHET_STEMS = words(`alb angust argent aur brev caerul cand crass cyan dens flav fusc glauc grand hirt
  lat long macr micr mult nigr parv pauc pil purpur rubr ruf sanguin semi sten tenu tri vari vir xanth pulchr
  glandul spin squam tort umbr ven verruc nud lasi leuc melan chrys erythr poly olig pachy lept plat eury`);
const EPITHET_JOINS = [
  '',
  ...words(`iflor ifoli ocarp ophyll icaul oceph osperm ostach anth opod orhiz odont
  opter oderm onot ispin ipil`),
];
const EPITHET_COLOURS = words('nigr alb atr leuc melan rubr flav purpur glauc xanth chrys cyan');
const EPITHET_ENDINGS = words(`a us um is ata atus ensis ica icus ina inus osa osus ella ellus ula ulus
  oides escens ifera iana ianus ii`);

/** Syllables that make invented names longer (genera, families, epithets, authors). */
const SYLLABLES = words(`a an ar ca ce ci co da de di do dra e fa fi ga go la le li lo lu ma me mi mo na ne
  ni no nu pa pe pha phi pi po ra re rhi ri ro ru sa se si so sta sto ta te the ti to tri va ve vi xa ze`);

// Invented genera: a stem, a syllable or two sometimes, and a suffix (`Leptorimyces`, `Chlorodanthus`),
// glued as Latin glues them.
const GENUS_STEMS = words(`Acanth Aden Agr Alb Amph Andr Anth Arg Arthr Aul Brach Bry Calam Call Carp
  Cephal Chlor Chrys Cten Cyan Cycl Dasy Dendr Derm Dipl Ech Erythr Eu Gloss Gymn Hal Hapl Helic Hem
  Heter Hex Hydr Hyp Lamp Lasi Lept Leuc Lith Lop Macr Meg Melan Mes Micr Mon Myr Neo Nyct Olig Ophi
  Ornith Orth Pachy Pal Pan Par Pent Phyll Phyt Pleur Pod Pol Pter Pyr Rhin Rhiz Sarc Schiz Scler
  Sphaer Stach Sten Strept Tetr Thalass Trach Trich Xanth Xer Zyg`);
const GENUS_SUFFIXES = words(`anthus carpus cephalus chloa cladus dendron derma don gaster glossa gnathus
  lepis lobus myces nema nota odon phora phyllum phis ptera pus rhiza soma spermum stoma thrix tes ura
  ella ia ina ites ops opsis oides ium aster`);

/** Authors who named many species, with the years they published in (first, last). */
const REAL_AUTHORS: [name: string, from: number, to: number][] = words(`
  L.:1753:1767 Linnaeus:1758:1771 Walker:1850:1870 DC.:1805:1838 Fabricius:1775:1807 Willd.:1797:1812
  Benth.:1830:1876 Hook.f.:1846:1900 Kunth:1815:1850 Schltr.:1895:1925 Pers.:1794:1822 Fr.:1815:1870
  Lam.:1778:1805 Boiss.:1838:1885 Rchb.f.:1850:1889 Nees:1816:1858 Thunb.:1780:1823 Jacq.:1760:1800
  Sm.:1790:1828 Sw.:1788:1818 Spreng.:1800:1833 Blume:1823:1862 Miq.:1840:1871 Müll.Arg.:1860:1896
  Meigen:1800:1838 Say:1817:1834 Gray:1820:1875 Cuvier:1797:1832 Valenciennes:1828:1850
  Boulenger:1880:1920 Günther:1858:1910 Latreille:1796:1833 Kirby:1802:1837 Hampson:1891:1926
  Warren:1888:1914 Motschulsky:1839:1869 Casey:1884:1924 LeConte:1844:1883 Bates:1860:1892
  Sharp:1870:1918 Pic:1890:1942 Lesson:1826:1847 Schaus:1892:1940 Dognin:1888:1924 Moore:1857:1898
  Fauvel:1860:1908 Karsch:1876:1906 Simon:1864:1929 Gaertn.:1788:1807 A.Rich.:1820:1850
  Standl.:1909:1955 Britton:1880:1930 Greene:1880:1915 Rydb.:1895:1931 Nakai:1909:1952
  Hayata:1904:1921 Merr.:1903:1956 Ridl.:1890:1940 Wall.:1820:1847 Steud.:1840:1856 Kuntze:1891:1898
  Pax:1884:1930 Engl.:1875:1930 Cogn.:1876:1913 Baker:1866:1906 Vahl:1790:1805 Poir.:1789:1823
  Desf.:1798:1829`).map((t) => {
  const [name, from, to] = t.split(':');
  return [name!, Number(from), Number(to)];
});
const SURNAME_ENDINGS = words(`ov ova ski mann er son ez ini ou ara eda ura ing berg ier ell an is ius ault`);
const INITIALS = words('A. B. C. D. E. F. G. H. J. K. L. M. N. P. R. S. T. W. Y. Z.');

/** Ranks and how often each is (the backbone's names are mostly species). */
const RANKS: [rank: string, level: number, share: number, marker: string][] = [
  ['species', 1, 0.84, ''],
  ['subspecies', 2, 0.09, 'subsp. '],
  ['variety', 3, 0.055, 'var. '],
  ['form', 4, 0.015, 'f. '],
];

/**
 * A Zipf–Mandelbrot rank in [0, n): P(r) ∝ 1/(r + q), drawn by inverting its
 * continuous distribution (no table, so n may be millions).
 */
function zipfRank(rng: Rng, n: number, q: number): number {
  const r = Math.floor(q * ((n + q) / q) ** rng() - q);
  return Math.min(n - 1, Math.max(0, r));
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Invented epithet k: stem + join + ending (ending varying fastest), then after a colour (`nigro…`). */
function inventedEpithet(k: number): string {
  let i = k;
  const ending = EPITHET_ENDINGS[i % EPITHET_ENDINGS.length]!;
  i = Math.floor(i / EPITHET_ENDINGS.length);
  const stem = EPITHET_STEMS[i % EPITHET_STEMS.length]!;
  i = Math.floor(i / EPITHET_STEMS.length);
  const join = EPITHET_JOINS[i % EPITHET_JOINS.length]!;
  i = Math.floor(i / EPITHET_JOINS.length);
  const before = i === 0 ? '' : `${EPITHET_COLOURS[(i - 1) % EPITHET_COLOURS.length]}o`;
  return glue(glue(before + stem, join), ending);
}

const SIMPLE_EPITHETS = EPITHET_ENDINGS.length * EPITHET_STEMS.length * EPITHET_JOINS.length;

/**
 * An epithet: a real one (3 in 10), an invented simple one (6 in 10) or a
 * compound one (1 in 10), each kind Zipf-distributed over its own ranks.
 */
function epithet(rng: Rng): string {
  const u = rng();
  if (u < 0.3) return REAL_EPITHETS[zipfRank(rng, REAL_EPITHETS.length, 2)]!;
  if (u < 0.9) return inventedEpithet(zipfRank(rng, SIMPLE_EPITHETS, 30));
  return inventedEpithet(
    SIMPLE_EPITHETS * (1 + zipfRank(rng, EPITHET_COLOURS.length, 2)) + zipfRank(rng, SIMPLE_EPITHETS, 30),
  );
}

const VOWEL = /^[aeiouy]/;

/**
 * Two parts of a name joined as Latin joins them: a linking `o` between two
 * consonants (`Anth` + `phora`: Anthophora), none after a vowel (`pachy` +
 * `ophyll`: pachyphyll), and a vowel before another dropped (`Brachoda` +
 * `idae`: Brachodidae; `vari` + `iflor`: variflor).
 */
function glue(a: string, b: string): string {
  if (a === '' || b === '') return a + b;
  const aVowel = VOWEL.test(a.slice(-1));
  const bVowel = VOWEL.test(b);
  if (!aVowel && !bVowel) return `${a}o${b}`;
  if (aVowel && bVowel) return /^o[^aeiouy]/.test(b) ? a + b.slice(1) : a.slice(0, -1) + b;
  return a + b;
}

interface Author {
  name: string;
  from: number;
  span: number;
}

/** Author k: a real one, else an invented surname (with an initial, often), publishing over a span of years. */
function author(seed: number, k: number): Author {
  const real = REAL_AUTHORS[k];
  if (real) return { name: real[0], from: real[1], span: real[2] - real[1] + 1 };
  const rng = mulberry32((seed * 0x9e3779b1) ^ Math.imul(k, 0x85ebca6b));
  let surname = '';
  for (let n = 1 + Math.floor(rng() * 2.5); n > 0; n--) surname = glue(surname, pick(rng, SYLLABLES));
  surname = capitalize(glue(surname, pick(rng, SURNAME_ENDINGS)));
  const name = rng() < 0.4 ? `${pick(rng, INITIALS)}${surname}` : surname;
  // More names were published every decade: first years lean late.
  const from = 1758 + Math.floor(250 * Math.sqrt(rng()));
  return { name, from, span: Math.min(2025 - from, 5 + Math.floor(rng() * 40)) };
}

/** Sizes of the corpus at `rows`: genera, authors and families grow with it. */
export function speciesSizes(rows: number): { genera: number; authors: number; families: number } {
  return {
    genera: Math.max(REAL_GENERA.length, Math.ceil(rows / 8)),
    authors: Math.max(REAL_AUTHORS.length, Math.ceil(rows / 40)),
    families: Math.min(5000, Math.max(100, Math.round(rows / 2000))),
  };
}

export interface SpeciesCorpus {
  rows: number;
  families: number;
  /** Genera that hold at least one species. */
  genera: number;
  /** Up to 40 canonical names spread over the file (`Quercus alba`), for queries that find something. */
  sample: string[];
}

/**
 * `count` distinct family names: the real genera's, then invented ones,
 * plants' (-aceae) and animals' (-idae). A stem and a syllable make some
 * 4,500 names (a syllable's vowel goes before -aceae): after every 20 names
 * taken in a row, one syllable more, so that any number can be named.
 */
export function familyNamesOf(count: number, seed: number): string[] {
  const names = [...new Set(REAL_GENERA.map(([, family]) => family))];
  const taken = new Set(names);
  const rng = stream(seed, 'family');
  for (let misses = 0; names.length < count; misses++) {
    let stem = glue(pick(rng, GENUS_STEMS), rng() < 0.5 ? pick(rng, SYLLABLES) : '');
    for (let n = Math.floor(misses / 20); n > 0; n--) stem = glue(stem, pick(rng, SYLLABLES));
    const name = glue(stem, rng() < 0.6 ? 'aceae' : 'idae');
    if (!taken.has(name)) {
      taken.add(name);
      names.push(name);
      misses = -1;
    }
  }
  return names;
}

/**
 * Writes species.csv, family.csv and reflist.config.json into `dir`: `rows`
 * species with ids 1..rows, from `seed`. species.csv is streamed out in
 * chunks (CsvWriter), so ten million rows take no more memory than a hundred
 * thousand, but for the genera's and authors' names.
 */
export async function writeSpecies(dir: string, rows: number, seed = 1): Promise<SpeciesCorpus> {
  const sizes = speciesSizes(rows);
  const familyNames = familyNamesOf(sizes.families, seed);
  const familyIds = new Map(familyNames.map((name, i) => [name, i]));
  const families = familyNames.length;

  // Genera, named when first drawn: a real genus keeps its family, an invented one gets a Zipf-drawn family.
  const genusNames: (string | undefined)[] = new Array(sizes.genera);
  const genusFamily = new Int32Array(sizes.genera);
  const taken = new Set(REAL_GENERA.map(([genus]) => genus));
  const genusRng = stream(seed, 'genus');
  let genera = 0;
  const genus = (r: number): string => {
    let name = genusNames[r];
    if (name !== undefined) return name;
    const real = REAL_GENERA[r];
    if (real) {
      name = real[0];
      genusFamily[r] = familyIds.get(real[1])!;
    } else {
      // As for families: after every 20 names taken in a row, one syllable more.
      let made = '';
      for (let misses = 0; made === '' || taken.has(made); misses++) {
        made = pick(genusRng, GENUS_STEMS);
        for (let n = (genusRng() < 0.5 ? 0 : genusRng() < 0.7 ? 1 : 2) + Math.floor(misses / 20); n > 0; n--)
          made = glue(made, pick(genusRng, SYLLABLES));
        made = glue(made, pick(genusRng, GENUS_SUFFIXES));
      }
      name = made;
      taken.add(name);
      genusFamily[r] = zipfRank(genusRng, families, 3);
    }
    genusNames[r] = name;
    genera++;
    return name;
  };
  const authors: (Author | undefined)[] = new Array(sizes.authors);

  const rng = stream(seed, 'species');
  const csv = new CsvWriter(join(dir, 'species.csv'), [
    'id',
    'canonical',
    'authorship',
    'rank',
    'rank_level',
    'family_id',
  ]);
  const sample: string[] = [];
  const every = Math.max(1, Math.floor(rows / 40));
  for (let id = 1; id <= rows; id++) {
    const g = zipfRank(rng, sizes.genera, 20);
    const name = genus(g);
    let canonical = `${name} ${epithet(rng)}`;
    if (id % every === 0 && sample.length < 40) sample.push(canonical);
    const u = rng();
    let at = 0;
    let rank = RANKS[0]!;
    for (const r of RANKS) {
      at += r[2];
      rank = r;
      if (u < at) break;
    }
    if (rank[1] > 1) canonical += ` ${rank[3]}${epithet(rng)}`;
    const a = zipfRank(rng, sizes.authors, 5);
    const who = (authors[a] ??= author(seed, a));
    const year = who.from + Math.floor(rng() * who.span);
    const authorship = rng() < 0.25 ? `(${who.name}, ${year})` : `${who.name}, ${year}`;
    csv.add([id, canonical, authorship, rank[0], rank[1], genusFamily[g]! + 1]);
    await csv.flushIfFull();
  }
  await csv.close();
  await writeTable(
    dir,
    'family.csv',
    ['id', 'name'],
    familyNames.map((name, i) => [i + 1, name]),
  );
  writeSpeciesConfig(dir);
  return { rows, families, genera, sample };
}

const species = {
  label: '{canonical} {authorship}',
  fields: { rank: 'string', level: { column: 'rank_level', type: 'integer' } },
  order: ['level'],
};

/**
 * The lists: every family (one whole list), every species a page at a time
 * (the species picker: Term over `Genus epithet Author, year`, species before
 * subspecies, varieties and forms), and the species of each family a page at
 * a time under it (a cascade's second level), read from the same species.csv.
 */
export const SPECIES_CONFIG = {
  lists: {
    family: { label: 'name', shape: 'whole' },
    species,
    familySpecies: {
      ...species,
      source: 'species.csv',
      path: 'species',
      parent: { list: 'family', column: 'family_id' },
    },
  },
};

function writeSpeciesConfig(dir: string): void {
  writeFileSync(join(dir, 'reflist.config.json'), `${JSON.stringify(SPECIES_CONFIG, null, 2)}\n`);
}

/**
 * One species' label changed in place, as an edit of the file would: its
 * year, one more (or one less in 2025), so the file keeps its length and a
 * ten-million-row file is neither read whole nor rewritten. Returns the new
 * line. Reads the file in 64 KB chunks up to the row.
 */
export function editSpecies(dir: string, id: number): string {
  const path = join(dir, 'species.csv');
  const fd = openSync(path, 'r+');
  try {
    const chunk = Buffer.alloc(1 << 16);
    const needle = Buffer.from(`\n${id},`);
    let carry = Buffer.alloc(0);
    let offset = 0; // of carry's first byte in the file
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, offset + carry.length);
      if (n === 0) throw new Error(`species.csv has no row ${id}`);
      const buf = Buffer.concat([carry, chunk.subarray(0, n)]);
      const at = buf.indexOf(needle);
      const end = at < 0 ? -1 : buf.indexOf('\n', at + 1);
      if (end >= 0) {
        const line = buf.subarray(at + 1, end).toString('utf8');
        const edited = line.replace(/(\d{4})(\)?"?,[a-z]+,\d,\d+)$/, (_, year: string, rest: string) => {
          const y = Number(year);
          return `${y >= 2025 ? y - 1 : y + 1}${rest}`;
        });
        if (edited === line || Buffer.byteLength(edited) !== end - at - 1)
          throw new Error(`cannot edit row ${id}: ${line}`);
        writeSync(fd, edited, offset + at + 1, 'utf8');
        return edited;
      }
      // Keep the tail that may hold the start of the row.
      const keep = Math.max(0, buf.length - 256);
      offset += keep;
      carry = buf.subarray(keep);
    }
  } finally {
    closeSync(fd);
  }
}
