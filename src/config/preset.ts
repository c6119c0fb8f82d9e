// The lookup service (docs/contract.md) as a declaration: the one module that
// names its lists. The shipped sources/reflist.config.json is this, written out.
import { checkConfig, type Declaration } from './declaration.js';

export const LOOKUP_SERVICE_CONFIG = {
  $schema: '../node_modules/reflist/schema/reflist.config.schema.json',
  groups: { source: 'system.csv', param: 'System' },
  lists: {
    author: { counts: { source: 'author_count.csv', group: 'system' } },
    division: { counts: { source: 'division_count.csv', group: 'system' }, children: 'category' },
    category: { parent: { list: 'division', column: 'division_id' } },
    descriptor: {},
    country: { shape: 'whole', items: true },
    state: { parent: { list: 'country', column: 'country_id' }, shape: 'whole', items: true },
    county: {
      parent: { list: 'state', column: ['country_id', 'state_id'] },
      id: { column: 'FIPS', key: 'FIPS' },
      label: { column: 'county', key: 'county' },
      fields: {
        latitudeCenter: { type: 'number', min: -90, max: 90 },
        LongitudeCenter: { type: 'number', min: -180, max: 180 },
      },
      keys: ['FIPS', 'LongitudeCenter', 'county', 'latitudeCenter'],
      shape: 'grid',
      items: true,
    },
  },
};

/** The presets `init --preset` knows, by name. */
export const PRESETS = { 'lookup-service': LOOKUP_SERVICE_CONFIG };
export type PresetName = keyof typeof PRESETS;

const { pageSize: _, ...lookupService } = checkConfig(LOOKUP_SERVICE_CONFIG, 'preset').declaration!;
const LOOKUP_SERVICE = JSON.stringify(lookupService);

/** Whether a declaration says what the lookup-service preset says, a page size aside. */
export function isLookupService(d: Declaration): boolean {
  const { pageSize: _, ...rest } = d;
  return JSON.stringify(rest) === LOOKUP_SERVICE;
}
