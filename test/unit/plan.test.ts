// The plan of a build, a pure value: what each section's change makes of it, without a disk.
import { describe, expect, test } from 'vitest';
import { fold } from '../../src/client/fold.js';
import type { Entry } from '../../src/sources/model.js';
import { planBuild, type Served } from '../../src/plan/plan.js';
import { checkConfig } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';
import { sectionsOf } from '../../src/config/sections.js';
import { encodeRecord } from '../../src/sources/record.js';
import type { ListState } from '../../src/plan/cache.js';
import { changedByEdits } from '../../src/plan/changed.js';

const items = (n: number): Entry[] =>
  Array.from({ length: n }, (_, i) => {
    const text = `Author ${String(i).padStart(3, '0')}`;
    return { id: i + 1, text, key: fold(text), counts: [] };
  });
const lineOf = (item: Entry) => `${fold(item.text)}\t${encodeRecord(item, { children: false, fields: false })}`;
const roots = sectionsOf(checkConfig(LOOKUP_SERVICE_CONFIG, 'x').declaration!).map((s) => s.root);
const state = (total: number): ListState =>
  ({
    info: { total, pages: 1, buckets: 1, search: [] },
    layout: { rootLarge: false, heads: [] },
    metas: [],
  }) as unknown as ListState;

const authors = items(100);
const served: Served = {
  states: { author: state(100), division: state(2), descriptor: state(0) },
  lines: { author: authors.map(lineOf) },
  totals: { country: 3 },
};

describe('the plan of a build', () => {
  test('keeps every section whose sources did not change, with the served state', () => {
    const plan = planBuild(roots, {}, {}, served);
    expect(plan.nests['country']).toEqual({ how: 'kept', total: 3, nested: {} });
    expect(plan.lists['author']).toEqual({ how: 'kept', state: served.states['author'] });
    expect(plan.lists['division']!.how).toBe('kept');
  });

  test('changes a list in place when a few of its items changed, and says which', () => {
    const next = items(100);
    next[41]!.text = 'Zed, Renamed';
    const plan = planBuild(roots, {}, { author: { items: next } }, served);
    expect(plan.lists['author']!.how).toBe('updated');
    if (plan.lists['author']!.how !== 'updated') return;
    expect(plan.lists['author']!.changed.map((c) => [c.at, c.entry.id, c.entry.text])).toEqual([
      [41, 42, 'Zed, Renamed'],
    ]);
  });

  test('renders a list afresh when an item is added, when many changed, or on a first build', () => {
    expect(planBuild(roots, {}, { author: { items: items(101) } }, served).lists['author']!.how).toBe('rendered');
    const many = items(100).map((item) => ({ ...item, text: item.text + ' Jr.' }));
    expect(planBuild(roots, {}, { author: { items: many } }, served).lists['author']!.how).toBe('rendered');
    const first = planBuild(
      roots,
      { country: [] },
      { author: { items: authors }, division: { items: [] }, descriptor: { items: [] } },
      undefined,
    );
    expect(Object.values(first.lists).map((p) => p.how)).toEqual(['rendered', 'rendered', 'rendered']);
    expect(first.nests['country']!.how).toBe('rendered');
  });

  test('applies text edits to the served list only when every edit names one of its entries', () => {
    const servedList = { state: served.states['author']!, lines: served.lines['author']! };
    const changed = changedByEdits([{ id: 7, text: 'Seventh, New' }], servedList);
    expect(changed?.map((c) => [c.at, c.entry.text])).toEqual([[6, 'Seventh, New']]);
    expect(
      changedByEdits(
        [
          { id: 7, text: 'x' },
          { id: 999, text: 'y' },
        ],
        servedList,
      ),
    ).toBeUndefined();
    const plan = planBuild(roots, {}, { author: { served: servedList, changed: changed! } }, served);
    expect(plan.lists['author']!.how).toBe('edited');
  });

  test('cannot keep what no build served', () => {
    expect(() => planBuild(roots, {}, {}, undefined)).toThrow(/served tree has no/);
  });
});
