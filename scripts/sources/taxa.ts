// Divisions (with their categories), descriptors and systems: a curated set
// for the shipped sample, and invented ones in the same style for large
// synthetic corpora.
import { pick, shuffle, int, type Rng } from './prng.js';

const w = (s: string): string[] =>
  s
    .split(/\s+/)
    .filter(Boolean)
    .map((x) => x.replaceAll('_', ' '));

/** Taxonomic divisions (classes and other higher taxa) → orders. */
export const DIVISIONS: [string, string[]][] = [
  ['Mammalia', w('Primates Rodentia Chiroptera Carnivora Cetacea Artiodactyla Eulipotyphla')],
  ['Aves', w('Passeriformes Accipitriformes Strigiformes Anseriformes Charadriiformes Psittaciformes Piciformes')],
  ['Reptilia', w('Squamata Testudines Crocodylia Rhynchocephalia')],
  ['Amphibia', w('Anura Caudata Gymnophiona')],
  ['Actinopterygii', w('Cypriniformes Perciformes Siluriformes Salmoniformes Characiformes Cichliformes')],
  ['Insecta', w('Coleoptera Lepidoptera Hymenoptera Diptera Hemiptera Odonata Orthoptera Trichoptera')],
  ['Arachnida', w('Araneae Acari Scorpiones Opiliones Pseudoscorpiones')],
  ['Mollusca', w('Gastropoda Bivalvia Cephalopoda Polyplacophora')],
  ['Crustacea', w('Decapoda Amphipoda Isopoda Copepoda Ostracoda')],
  ['Magnoliopsida', w('Asterales Fabales Rosales Lamiales Gentianales Caryophyllales Malpighiales')],
  ['Liliopsida', w('Poales Asparagales Liliales Arecales Alismatales Zingiberales')],
  ['Pinopsida', w('Pinales Araucariales Cupressales')],
  ['Bryophyta', w('Bryales Hypnales Dicranales Polytrichales Sphagnales')],
  ['Fungi', w('Agaricales Boletales Polyporales Russulales Pezizales Lecanorales')],
];

export const SYSTEMS: [string, string][] = [
  ['gbif', 'GBIF – Global Biodiversity Information Facility'],
  ['col', 'Catalogue of Life'],
  ['itis', 'Integrated Taxonomic Information System (ITIS)'],
];

export function systemRows(n: number): [string, string][] {
  const rows = SYSTEMS.slice(0, n);
  for (let i = rows.length + 1; i <= n; i++) rows.push([`sys-${i}`, `Synthetic system ${i}`]);
  return rows;
}

const TOPICS = w(`Taxonomy Systematics Phylogenetics Nomenclature Morphology Anatomy Physiology Ecology
  Biogeography Phylogeography Population_genetics Conservation_biology Evolution Speciation Hybridization
  Behaviour Reproduction Life_history Development Palaeontology Fossil_record Biostratigraphy
  Invasive_species Endemism Biodiversity Species_richness Community_ecology Food_webs Predation Parasitism
  Symbiosis Mutualism Pollination Seed_dispersal Herbivory Migration Dispersal Climate_change Phenology
  Habitat_loss Fragmentation Restoration_ecology Protected_areas Red_List_assessment Extinction
  DNA_barcoding Metabarcoding Genomics Transcriptomics Karyology Cytogenetics Molecular_clock
  Type_specimens Museum_collections Herbarium_specimens Field_guides Identification_keys Checklists
  Faunistics Floristics Species_distribution_models Citizen_science Remote_sensing Bioacoustics
  Camera_trapping Mark–recapture Occupancy_models Abundance Population_dynamics Trophic_ecology
  Stable_isotopes Ecotoxicology Pesticides Agriculture Forestry Fisheries Aquaculture Zoonoses
  Vector_ecology Plant_pathology Mycorrhiza Soil_fauna Cave_fauna Island_biogeography Urban_ecology
  Ethnobiology Traditional_knowledge History_of_science Bibliography Data_publishing Open_data`);

const HABITATS = w(`Marine Freshwater Terrestrial Tropical Temperate Arctic Alpine Desert Coastal Deep-sea
  Urban Agricultural Montane Riparian Cave Island Grassland Wetland Mangrove Coral_reef`);

const SUBJECTS = w(`ecology biodiversity conservation invertebrates vertebrates plants fungi birds mammals
  insects fishes amphibians reptiles algae lichens mosses spiders molluscs crustaceans nematodes`);

const REGIONS = w(`Africa Asia Europe North_America South_America Oceania Antarctica Mediterranean
  Neotropics Palaearctic Nearctic Afrotropics Indo-Pacific Amazonia Andes Himalaya Caribbean Madagascar
  Borneo New_Guinea Patagonia Sahara Siberia Arctic_Ocean Atlantic_Ocean Pacific_Ocean Indian_Ocean`);

/** ~`n` distinct subject keywords: the topics first, then "Habitat subject" and "Topic – Region" combinations. */
export function descriptorTexts(rng: Rng, n: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (s: string): void => {
    if (out.length < n && !seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  };
  for (const t of TOPICS) add(t);
  const combos: string[] = [];
  for (const h of HABITATS) for (const s of SUBJECTS) combos.push(`${h} ${s}`);
  for (const t of TOPICS.slice(0, 40)) for (const r of REGIONS) combos.push(`${t} – ${r}`);
  for (const c of shuffle(rng, combos)) add(c);
  // Beyond the combinations (synthetic corpora): invented terms in the same style.
  while (out.length < n) {
    const word = capitalize(latinWord(rng, int(rng, 2, 4)));
    add(rng() < 0.5 ? `${word} ${pick(rng, SUBJECTS)}` : `${pick(rng, TOPICS)} – ${word}`);
  }
  return out;
}

const LATIN = w(`a ae an ar as be ca ce ci co cu da de di do dra e fa fi ga go gy la le li lo lu ma me mi mo
  na ne ni no nu o pa pe pha phi pi po pte ra re rhi ri ro ru sa se si so sta sto ta te the ti to tri u
  va ve vi xa xe ze`);

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function latinWord(rng: Rng, syllables: number): string {
  let s = '';
  for (let i = 0; i < syllables; i++) s += pick(rng, LATIN);
  return s;
}

const DIVISION_ENDINGS = w('ida opsida phyta mycota poda zoa');
const CATEGORY_ENDINGS = w('iformes ales ineae acea oidea');

/**
 * `divisions` invented higher taxa with `categories` orders spread over them:
 * every division gets at least one (when there are enough), the rest go to
 * divisions chosen with a skew, so a few divisions are large.
 */
export function syntheticDivisions(rng: Rng, divisions: number, categories: number): [string, string[]][] {
  const seen = new Set<string>();
  const unique = (make: () => string): string => {
    for (;;) {
      const s = make();
      if (!seen.has(s)) {
        seen.add(s);
        return s;
      }
    }
  };
  const out: [string, string[]][] = [];
  for (let i = 0; i < divisions; i++) {
    out.push([unique(() => capitalize(latinWord(rng, int(rng, 2, 3))) + pick(rng, DIVISION_ENDINGS)), []]);
  }
  for (let c = 0; c < categories && out.length > 0; c++) {
    const d = c < divisions ? c : Math.floor(rng() ** 2 * divisions);
    out[d]?.[1].push(unique(() => capitalize(latinWord(rng, int(rng, 2, 3))) + pick(rng, CATEGORY_ENDINGS)));
  }
  return out;
}
