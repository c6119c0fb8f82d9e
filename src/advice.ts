// What a tree's measure (write/fit.ts) means for the hosts, in words: the
// line every build prints, a warning for each folder over the contract's
// 10,000 entries, and an error for each cap of the `--host` a tree is over,
// each naming the knob of the declaration that would bring it under
// (docs/lists.md, "When a list outgrows a host"). Pure.
import { ancestors, type Declaration, type ListSpec } from './config/declaration.js';
import type { SectionSpec } from './config/sections.js';
import { ReflistError } from './errors.js';
import { FOLDER_CAP, overCaps, type Misfit, type Part, type Tally, type TreeSize } from './write/fit.js';
import { HOST_NAMES, HOSTS, type Host, type HostName } from './config/hosts.js';
import { groupSegment } from './client/paths.js';

/** What the knobs depend on besides the tree: the declaration, its sections and the page size it was built with. */
export interface Knobs {
  declaration: Declaration;
  sections: readonly SectionSpec[];
  pageSize: number;
}

const int = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
/** Bytes in the units hosts state their caps in: binary for a file (25 MiB), decimal for a site (1 GB). */
function amount(bytes: number, binary: boolean): string {
  const [base, units] = binary ? [1024, ['B', 'KiB', 'MiB', 'GiB']] : [1000, ['B', 'kB', 'MB', 'GB']];
  let i = 0;
  while (bytes >= base ** (i + 1) && i < units.length - 1) i++;
  const value = bytes / base ** i;
  return `${i === 0 || Number.isInteger(value) ? value : value.toFixed(1)} ${units[i]}`;
}
const folderName = (path: string) => (path === '' ? 'the root' : path);

/** The named hosts a tree fits, and those it does not, each with its first figure over. */
export function fits(size: TreeSize): { fit: HostName[]; over: [HostName, Misfit][] } {
  const fit: HostName[] = [];
  const over: [HostName, Misfit][] = [];
  for (const name of HOST_NAMES) {
    const misfits = overCaps(size, HOSTS[name]);
    if (misfits.length === 0) fit.push(name);
    else over.push([name, misfits[0]!]);
  }
  return { fit, over };
}

/** The figure of a misfit, as `tree:` and the errors say it. */
function figure(m: Misfit, host: Host): string {
  switch (m.figure) {
    case 'files':
      return `${int(m.value)} files, over ${int(m.cap)}`;
    case 'site':
      return `${amount(m.value, false)}, over ${amount(m.cap, false)}`;
    case 'file':
      return `file ${m.path} is ${amount(m.value, true)}, over ${amount(m.cap, true)}${m.more > 0 ? ` (and ${int(m.more)} more files)` : ''}`;
    case 'folder':
      return `folder ${folderName(m.path)} holds ${int(m.value)} entries, over ${host.title}'s ~${int(m.cap)}`;
  }
}

/** The one line every build prints of its tree: files, bytes, largest file, fullest folder, and the hosts it fits. */
export function fitLine(size: TreeSize, out: string): string {
  const copies =
    size.copies.files > 0 ? `, ${size.copies.files} of them .gz/.br copies (${mb(size.copies.bytes)})` : '';
  const { fit, over } = fits(size);
  const hosts = [
    fit.length === HOST_NAMES.length
      ? 'fits every host --host knows'
      : `fits ${fit.length > 0 ? fit.join(', ') : 'none of the hosts --host knows'}`,
    ...over.map(([name, m]) => `not ${name} (${figure(m, HOSTS[name])})`),
  ].join('; ');
  return (
    `tree: ${size.files} files, ${mb(size.bytes)} at ${out}${copies}; largest ${size.largest.path} (${amount(size.largest.bytes, true)}),` +
    ` fullest folder ${folderName(size.fullest.path)} (${size.fullest.entries} entries); ${hosts}`
  );
}

/** A warning for each folder over FOLDER_CAP entries: a public one (items, pages) keeps its names, so the build says which hosts cannot take it, and the knob. */
export function crowdedWarnings(size: TreeSize, knobs: Knobs): string[] {
  return size.crowded
    .filter((f) => f.entries > FOLDER_CAP)
    .map(({ path, entries, copies }) => {
      const refuse = HOST_NAMES.filter((name) =>
        overCaps(size, HOSTS[name]).some((m) => m.figure === 'folder' && m.path === path),
      );
      const hosts =
        refuse.length > 0
          ? refuse.map((name) => `${name} cannot take it (~${int(HOSTS[name].folderEntries!)} at most)`).join(', ')
          : 'the hosts --host knows take it';
      return `folder ${folderName(path)} holds ${int(entries)} entries, over the ${int(FOLDER_CAP)} of docs/contract.md §3: ${hosts}; to keep under: ${folderKnob(path, entries, copies, FOLDER_CAP, knobs)}`;
    });
}

/** An error for each cap of `host` the tree is over, naming the figure and the knob. */
export function misfitErrors(host: Host, misfits: Misfit[], size: TreeSize, knobs: Knobs): ReflistError[] {
  return misfits.map(
    (m) => new ReflistError('OVER_CAP', `${host.name}: ${figure(m, host)}: ${knob(host, m, size, knobs)}`),
  );
}

function knob(host: Host, m: Misfit, size: TreeSize, knobs: Knobs): string {
  const elsewhere = fits(size).fit.filter((name) => name !== host.name);
  const or = elsewhere.length > 0 ? `; or build for a host with room for it (--host ${elsewhere.join(', ')})` : '';
  switch (m.figure) {
    case 'files':
    case 'site':
      return countKnob(m.figure === 'files' ? 'files' : 'bytes', m.value - m.cap, size, knobs) + or;
    case 'file':
      return fileKnob(m.path, knobs) + or;
    case 'folder':
      return folderKnob(m.path, m.value, size.crowded.find((f) => f.path === m.path)!.copies, m.cap, knobs) + or;
  }
}

/** The lists of a declaration with their folder's segments, `*` for a parent's id: `country/ * /state`. */
function listFolders(d: Declaration): { list: ListSpec; segments: string[] }[] {
  const byName = new Map(d.lists.map((l) => [l.name, l]));
  return d.lists
    .filter((l) => !l.embeddedIn)
    .map((list) => ({ list, segments: [...ancestors(list, byName).flatMap((a) => [a.path, '*']), list.path] }));
}

/** The list whose folder (or a file in it) `segments` name. */
function listAt(d: Declaration, segments: string[]): ListSpec | undefined {
  return listFolders(d).find(
    (f) => f.segments.length === segments.length && f.segments.every((s, i) => s === '*' || s === segments[i]),
  )?.list;
}

const LISTS_DOC = 'docs/lists.md#when-a-list-outgrows-a-host';

/** The page size that would make `pages` page files `target` at most. */
function pageSizeFor(pageSize: number, pages: number, target: number): string {
  const size = Math.ceil((pageSize * pages) / Math.max(target, 1));
  return size <= 10_000
    ? `"pageSize": ${size} or more (now ${pageSize}; --page-size overrides it)`
    : `a larger "pageSize" (now ${pageSize})`;
}

/** What would bring a folder of `entries` (`copies` of them compressed copies) under `cap`, by what fills it. */
function folderKnob(path: string, entries: number, copies: number, cap: number, knobs: Knobs): string {
  if (copies > 0) {
    const without = `build without --compress (${int(copies)} of them are .gz/.br copies)`;
    return entries - copies <= cap ? without : `${without}, and ${folderKnob(path, entries - copies, 0, cap, knobs)}`;
  }
  const d = knobs.declaration;
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.at(-1) === 'page') return pageSizeFor(knobs.pageSize, entries, cap);
  const group = d.groups && groupSegment(d.groups.param);
  if (group && segments.length === 2 && segments[1] === group)
    return `fewer groups (each holds 2 entries here: its first page and its folder) (${LISTS_DOC})`;
  const list = listAt(d, segments);
  if (!list) return `see ${LISTS_DOC}`;
  const under = list.parent ? '' : ', or list it under a parent';
  if (list.items)
    return `declare "items": false on lists.${list.name} (${list.shape === 'paged' ? 'Id lookups answer its items all the same' : 'its list file holds them all the same'})${under} (${LISTS_DOC})`;
  return `each of lists.${list.name}'s items holds the lists under it here: list them under another parent (${LISTS_DOC})`;
}

/** What would bring one file under a host's cap on a file, by whose file it is. */
function fileKnob(path: string, knobs: Knobs): string {
  const segments = path.replace(/\.json$/, '').split('/');
  if (segments.at(-2) === 'page') return `a smaller "pageSize" (now ${knobs.pageSize})`;
  const list = listAt(knobs.declaration, segments);
  if (list && list.shape !== 'paged')
    return `declare "shape": "paged" on lists.${list.name}${list.parent ? ' (a paged list has no parent yet: declare it beside this one)' : ''}, or list it under a parent (${LISTS_DOC})`;
  return `see ${LISTS_DOC}`;
}

const PART_NAMES: Record<Part, string> = {
  page: 'page files',
  public: 'item and list files',
  id: 'Id buckets',
  search: 'search files',
  results: 'result page files and record blocks',
  other: 'root files',
  copies: '.gz/.br copies',
};

/** What would bring the tree's files (or bytes) down by `excess`: the knob of the part that holds the most. */
function countKnob(what: keyof Tally, excess: number, size: TreeSize, knobs: Knobs): string {
  const parts = Object.entries(size.parts).flatMap(([section, p]) =>
    Object.entries(p).map(([part, tally]) => ({ section, part: part as Part, tally })),
  );
  const top = parts.sort((a, b) => b.tally[what] - a.tally[what])[0]!;
  const of = `most are ${PART_NAMES[top.part]}${top.part === 'copies' ? '' : ` of ${top.section}`} (${what === 'files' ? int(top.tally.files) : amount(top.tally.bytes, false)})`;
  const list = listAt(knobs.declaration, [top.section]);
  switch (top.part) {
    case 'page':
      return `${of}: ${what === 'files' ? pageSizeFor(knobs.pageSize, top.tally.files, top.tally.files - excess) : `a larger "pageSize" (now ${knobs.pageSize})`}`;
    case 'copies':
      return `${of}: build without --compress (the host compresses what it serves)`;
    case 'search':
    case 'results':
      return `${of}: declare "search": false on lists.${list?.name ?? top.section} (no Term search there)`;
    case 'public': {
      const section = knobs.sections.find((s) => s.name === top.section);
      const items = section ? [section.root, ...section.nested].filter((l) => l.items) : [];
      return items.length > 0
        ? `${of}: declare "items": false on ${items.map((l) => `lists.${l.name}`).join(', ')} (${LISTS_DOC})`
        : `${of} (${LISTS_DOC})`;
    }
    default:
      return `${of} (${LISTS_DOC})`;
  }
}
