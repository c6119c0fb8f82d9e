// The pipeline's direction, checked: every import between the folders of
// src/ (type imports too), those that run against the order
// docs/architecture.md writes down, and any cycle of imports between modules. `npx tsx scripts/imports.ts` prints them
// and exits 1 on any; test/unit/imports.test.ts runs it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Each part of src/ and its rank: a module may import its own part and any
 * of a lower rank. The shared leaves (errors, the tree's file types, the
 * package root, progress, equal values shared) and the client's rules sit under every stage; the
 * stages follow the pipeline; build.ts, the commands and the entries are the
 * top. The client, its adapters and the widgets are bundled for browsers and
 * hosts: they import the client and nothing of the builder.
 */
export const RANKS: Record<string, number> = {
  client: 0,
  'errors.ts': 1,
  'tree-files.ts': 1,
  'root.ts': 1,
  'progress.ts': 1,
  'shared.ts': 1,
  config: 2,
  sources: 3,
  plan: 4,
  render: 5,
  search: 5,
  write: 6,
  'advice.ts': 7,
  'build.ts': 8,
  commands: 9,
  'cli.ts': 10,
  'index.ts': 10,
  'bin.ts': 11,
};
/** Parts the builder's stages may not import, nor they import the builder: bundled on their own. */
const CLIENT_SIDE = new Set(['client', 'adapters', 'widgets']);

/** Render and search are one stage: render calls the index, the index imports nothing of render. */
const ONE_WAY: [from: string, to: string][] = [['search', 'render']];

export interface Import {
  from: string;
  to: string;
  line: number;
  text: string;
}

const partOf = (path: string) => path.split('/')[0]!;

/** Every relative import and re-export of every module of `src`, as paths under it. */
export function importsOf(src: string): Import[] {
  const found: Import[] = [];
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split(sep).join('/'));
  for (const file of files.sort()) {
    const text = readFileSync(join(src, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom '(\.{1,2}\/[^']+)'|^import '(\.{1,2}\/[^']+)'/gm)) {
      const to = posix.normalize(posix.join(posix.dirname(file), (m[1] ?? m[2])!)).replace(/\.js$/, '.ts');
      found.push({ from: file, to, line: text.slice(0, m.index).split('\n').length, text: m[0].replace(/\s+/g, ' ') });
    }
  }
  return found;
}

/** Why an import runs against the pipeline, or undefined when it does not. */
export function violation({ from, to }: Import): string | undefined {
  const [a, b] = [partOf(from), partOf(to)];
  if (a === b) return undefined;
  // lookup-client.js (client/index.ts's bundle) carries select2's adapter: a select2 page loads the client alone.
  if (from === 'client/index.ts' && to === 'widgets/select2.ts') return undefined;
  if (CLIENT_SIDE.has(a))
    return b === 'client' ? undefined : `${a}/ is bundled for browsers and hosts: it imports client/ alone`;
  if (CLIENT_SIDE.has(b) && b !== 'client') return `${b}/ is a bundle's entry, not a module the builder imports`;
  if (ONE_WAY.some(([x, y]) => x === a && y === b)) return `${a}/ is called by ${b}/, not the other way`;
  const [ra, rb] = [RANKS[a], RANKS[b]];
  if (ra === undefined || rb === undefined)
    return `${ra === undefined ? a : b} has no place in the order (scripts/imports.ts RANKS)`;
  return rb > ra ? `${a} (rank ${ra}) imports ${b}, a later stage (rank ${rb})` : undefined;
}

/**
 * The modules that import each other, directly or around a loop, type imports
 * included: each cycle's modules, sorted (Tarjan's strongly connected
 * components of more than one module). A cycle knots modules that should be
 * read one after the other; none is allowed.
 */
export function cyclesOf(imports: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    order.set(v, order.size);
    low.set(v, order.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of [...next.keys()].sort()) if (!order.has(v)) visit(v);
  return cycles;
}

const main = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (main) {
  const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const imports = importsOf(src);
  const edges = new Map<string, number>();
  for (const i of imports) {
    const [a, b] = [partOf(i.from), partOf(i.to)];
    if (a !== b) edges.set(`${a} → ${b}`, (edges.get(`${a} → ${b}`) ?? 0) + 1);
  }
  console.log(`imports between the parts of src/ (${relative(process.cwd(), src) || '.'}):`);
  for (const [edge, n] of [...edges].sort()) console.log(`  ${edge} (${n})`);
  const bad = imports.flatMap((i) => {
    const why = violation(i);
    return why ? [`src/${i.from}:${i.line}: ${why}: ${i.text}`] : [];
  });
  for (const cycle of cyclesOf(imports)) bad.push(`src/${cycle[0]}: an import cycle: ${cycle.join(', ')}`);
  for (const line of bad) console.log(line);
  console.log(
    bad.length === 0
      ? 'no import runs against the pipeline, and no module imports itself around a cycle'
      : `${bad.length} import(s) or cycle(s) run against the pipeline`,
  );
  process.exitCode = bad.length === 0 ? 0 : 1;
}
