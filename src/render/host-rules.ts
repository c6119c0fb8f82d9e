// What the host files share (hosts.ts, nginx.ts): which lists a rule is for,
// where a list's files are, the patterns of its path and its ids, and the
// spellings of a parameter a rule matches. Pure.
import { itemFolder, nestedFolder } from '../client/paths.js';
import { chainOf } from '../client/request.js';
import type { ApiList, Manifest } from '../client/types.js';

/** What the host files are made with beyond the manifest. */
export interface HostOptions {
  /** An http(s) origin (`http://127.0.0.1:8081`) where nginx.conf sends what only the client answers. */
  nginxUpstream?: string;
}

/**
 * Parameter spellings the legacy rules match on hosts that compare names
 * case-sensitively: lower case (what select2 sends) and as declared.
 */
export const casings = (name: string | undefined): string[] =>
  name === undefined ? [] : [...new Set([name.toLowerCase(), name])];

export const paged = (manifest: Manifest) => manifest.api.lists.filter((l) => l.shape === 'paged');
/** Paged lists without a parent: at `/{path}.json`. */
export const rootPaged = (manifest: Manifest) => paged(manifest).filter((l) => !l.parent);
/** Paged lists under a parent: at `/{parent path}/{id}/{path}.json`, each parent item's pages its own files. */
export const nestedPaged = (manifest: Manifest) => paged(manifest).filter((l) => l.parent);

/** The folder of a paged list's internal files (Id buckets, Term index, result page files). */
export const internalFolder = (manifest: Manifest, list: ApiList) =>
  list.parent ? nestedFolder(chainOf(manifest.api, list).map((l) => l.path)) : list.path;

/** `a, b and c`. */
export const spoken = (names: string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** A list's path with each ancestor's id as a placeholder: `country/:c/state` (`:`) or a regex (`re`). */
export function pathPattern(manifest: Manifest, list: ApiList, style: ':' | 're'): string {
  const chain = chainOf(manifest.api, list);
  const id = (l: ApiList, i: number) => (style === ':' ? `:${String.fromCharCode(97 + i + 2)}` : idPattern(l));
  return chain.slice(0, -1).reduce((folder, l, i) => itemFolder(folder + l.path, id(l, i)), '') + list.path;
}

/** The character class of a list's ids (a class of string ids holds no regex or nginx quote). */
export const idClass = (list: Pick<ApiList, 'id' | 'chars'>) => (list.id === 'integer' ? '[0-9]' : `[${list.chars}]`);

/** The regex of a list's ids in a path. */
export const idPattern = (list: ApiList) => `${idClass(list)}+`;
