// Stages 1 and 2 for a section a build makes again (build.ts asks for one at
// a time, just before rendering it): its sources read (read.ts) and checked
// (validate.ts) a row at a time, every error at once. Which sections those
// are is the plan's to say (plan/changes.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareStrings } from '../client/fold.js';
import { sourceFiles, type Declaration, type SourceSpec } from '../config/declaration.js';
import type { SectionSpec } from '../config/sections.js';
import { type ReflistError, ReflistErrors } from '../errors.js';
import type { Entry, Node } from './model.js';
import { validateNest } from './nest.js';
import { Checker, validateGroups, validateList, type Groups, type SourcePaths } from './validate.js';

/** Where the named sources of a folder are: an absent file is left out, and is an empty list. */
export function sourcePaths(dir: string, sources: readonly SourceSpec[]): SourcePaths {
  const paths: SourcePaths = new Map();
  for (const { file, delimiter } of sources) {
    const path = join(dir, file);
    if (existsSync(path)) paths.set(file, { path, delimiter });
  }
  return paths;
}

const byLocation = (a: ReflistError, b: ReflistError) =>
  compareStrings(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0);

/** Errors as a build reports them: each once (two lists, or two sections, may read one file and report its errors each), by file and line. */
export function reported(errors: readonly ReflistError[]): ReflistError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(String(e)) && seen.add(String(e))).sort(byLocation);
}

/** The checked sources of some sections: the groups, each nest's nodes and each paged list's items, by root list. */
export interface Checked {
  groups: Groups;
  nests: Record<string, Node[]>;
  items: Record<string, Entry[]>;
}

/**
 * Reads and checks the sources of `sections` (and the groups'); every error
 * found throws at once, sorted by file and line.
 */
export function checkSources(dir: string, declaration: Declaration, sections: readonly SectionSpec[]): Checked {
  const needed = new Set(sections.flatMap((s) => s.files));
  if (declaration.groups) needed.add(declaration.groups.source.file);
  const paths = sourcePaths(
    dir,
    sourceFiles(declaration).filter((s) => needed.has(s.file)),
  );
  const check = new Checker(declaration, paths);
  const groups = validateGroups(check);
  const nests: Record<string, Node[]> = {};
  const items: Record<string, Entry[]> = {};
  for (const section of sections) {
    const { root } = section;
    if (root.shape !== 'paged') nests[root.name] = validateNest(check, section);
    else items[root.name] = validateList(check, root, groups);
  }
  if (check.errors.length > 0) throw new ReflistErrors(reported(check.errors));
  return { groups, nests, items };
}
