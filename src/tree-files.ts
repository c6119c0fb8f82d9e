// What a build hands from stage to stage: the tree's files, its sections, and
// the outputs the writer takes. Types and two small functions every stage
// shares, so none of them imports another for these.
export type TreeFile = [path: string, text: string];

/**
 * A part of the tree made from its own sources, kept whole when those did not
 * change: a root list with the lists under it (config/sections.ts), named by
 * its path segment, the first segment of every path of the section.
 */
export type Section = string;

/** What rendering hands the writer: files, sections to keep from the served tree, and the build cache. */
export type Output =
  | TreeFile
  | { keep: Section; drop: string[] }
  | { cache: string; text: string | Uint8Array; append?: boolean };

/** Text an output carries, in UTF-16 units: what the writer's backlog is measured in. */
export const outputLength = (output: Output): number =>
  Array.isArray(output) ? output[1].length : 'text' in output ? output.text.length : 0;

/**
 * The section a path of the tree would belong to: its first segment. The root
 * files (lookup.json, the scripts) are written by every build, so no section
 * ever keeps them.
 */
export function sectionOf(path: string): Section {
  const slash = path.indexOf('/');
  return slash < 0 ? path.slice(0, path.indexOf('.')) : path.slice(0, slash);
}
