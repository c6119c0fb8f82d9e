// What a build hands from stage to stage: the tree's files, its sections, and
// the outputs the writer takes. Types and two small functions every stage
// shares, so none of them imports another for these.
import { PAGED_LISTS, type PagedList } from './client/types.js';

export type TreeFile = [path: string, text: string];

/** The parts of the tree that are made from their own sources (SECTION_SOURCES), and kept whole when those did not change. */
export const SECTIONS = ['locations', ...PAGED_LISTS] as const;
export type Section = (typeof SECTIONS)[number];

/** What rendering hands the writer: files, sections to keep from the served tree, and the build cache. */
export type Output =
  | TreeFile
  | { keep: Section; drop: string[] }
  | { cache: string; text: string | Uint8Array; append?: boolean };

/** Text an output carries, in UTF-16 units: what the writer's backlog is measured in. */
export const outputLength = (output: Output): number =>
  Array.isArray(output) ? output[1].length : 'text' in output ? output.text.length : 0;

/** The section a path of the tree belongs to; lookup.json and the other root files belong to none. */
export function sectionOf(path: string): Section | undefined {
  const slash = path.indexOf('/');
  const head = slash < 0 ? path.slice(0, path.indexOf('.')) : path.slice(0, slash);
  if (head === 'country') return 'locations';
  return (PAGED_LISTS as readonly string[]).includes(head) ? (head as PagedList) : undefined;
}
