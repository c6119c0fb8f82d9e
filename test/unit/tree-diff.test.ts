// What a build does to the spare generation, decided from indexes without a disk.
import { describe, expect, test } from 'vitest';
import { diffTree, indexEntry, type Index, type TreeDiffInput } from '../../src/write/diff.js';

const index = (entries: Record<string, string>): Index => new Map(Object.entries(entries));
const e = (hash: string, bytes = 10) => indexEntry(hash, bytes);
const diff = (input: Partial<TreeDiffInput> & Pick<TreeDiffInput, 'added'>) => {
  return diffTree({ keeps: new Map(), spare: new Map(), ...input });
};

describe('the diff between the served tree and the next', () => {
  test('a first build takes what it was given: nothing to link, nothing served to remove', () => {
    const d = diff({ added: index({ 'lookup.json': e('m', 5), 'author/pages/1.json': e('p1', 7) }) });
    expect([...d.next.keys()]).toEqual(['lookup.json', 'author/pages/1.json']);
    expect(d).toMatchObject({ link: [], remove: [], kept: 0, copied: 0, removed: 0, unchanged: false });
  });

  test('a build that adds exactly the served files is unchanged, and touches nothing', () => {
    const served = index({ 'lookup.json': e('m'), 'author/pages/1.json': e('p1') });
    const d = diff({ served, added: new Map(served) });
    expect(d).toMatchObject({ unchanged: true, link: [], remove: [], copied: 0 });
  });

  test('a served tree that moves to another generation is swapped in even when nothing changed: every file linked into the empty spare', () => {
    const served = index({ 'lookup.json': e('m'), 'author/pages/1.json': e('p1') });
    const d = diff({ served, added: new Map(served), moving: true });
    expect(d).toMatchObject({
      unchanged: false,
      link: ['lookup.json', 'author/pages/1.json'],
      remove: [],
      copied: 2,
      removed: 0,
    });
  });

  test('a file the new tree lacks is removed, and the tree is no longer unchanged', () => {
    const served = index({ 'lookup.json': e('m'), 'author/pages/2.json': e('p2') });
    const d = diff({ served, spare: new Map(served), added: index({ 'lookup.json': e('m') }) });
    expect(d).toMatchObject({ unchanged: false, removed: 1, remove: ['author/pages/2.json'] });
  });

  test('links from the served tree the unchanged files the spare lacks or holds otherwise, and only those', () => {
    const served = index({
      'lookup.json': e('m2'),
      'author/pages/1.json': e('p1'),
      'author/pages/2.json': e('p2'),
      'author/search/a.json': e('a'),
    });
    const spare = index({ 'lookup.json': e('m1'), 'author/pages/1.json': e('p1'), 'author/pages/2.json': e('old') });
    const d = diff({
      served,
      spare,
      added: index({
        'lookup.json': e('m3'),
        'author/pages/1.json': e('p1'),
        'author/pages/2.json': e('p2'),
        'author/search/a.json': e('a'),
      }),
    });
    expect(d.link).toEqual(['author/pages/2.json', 'author/search/a.json']);
    expect(d.copied).toBe(2); // the served lookup.json is stale too, but the new tree changes it
    expect(d.remove).toEqual([]);
  });

  test('a kept section carries over its served files, but those its update drops or adds anew', () => {
    const served = index({
      'lookup.json': e('m1'),
      'author/pages/1.json': e('p1'),
      'author/pages/2.json': e('p2'),
      'author/search/x.json': e('x'),
      'descriptor/pages/1.json': e('d1'),
      'country/1.json': e('c1'),
    });
    const added = index({ 'lookup.json': e('m2'), 'author/pages/1.json': e('p1new') });
    const keeps = new Map([['author', new Set(['author/search/x.json'])]] as const);
    const d = diff({ served, spare: new Map(served), added, keeps });
    expect([...d.next.keys()]).toEqual(['lookup.json', 'author/pages/1.json', 'author/pages/2.json']);
    expect(d.next.get('author/pages/1.json')).toBe(e('p1new'));
    expect(d.kept).toBe(1);
    expect(d.removed).toBe(3); // the dropped search file, and the sections neither kept nor rendered
    expect(d.remove).toEqual(['author/search/x.json', 'descriptor/pages/1.json', 'country/1.json']);
  });
});
