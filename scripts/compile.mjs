// Bundles the CLI, the programmatic API, the build's thread and the writer's threads for Node, the
// scripts every built tree carries at its root (the client and the host
// adapters), each a single dependency-free file, and the drop-down adapters. `npm pack` runs this (prepack).
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// Emptied first: a stale file (a chunk of an older build) must not end up in a package.
rmSync('lib', { recursive: true, force: true });

// A drop-down adapter (reflist/react-select, …) takes the widget-neutral source from the client the page
// already loads, so that its file holds only its own wiring and a page has one client module.
const fromClient = {
  name: 'from-client',
  setup(b) {
    b.onResolve({ filter: /\/client\/(source|cascade|highlight)\.js$/ }, () => ({
      path: '../tree/lookup-client.js',
      external: true,
    }));
  },
};

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning' };
// Packages stay imports (a project's own esbuild, react, …; the package's dependencies), but TypeBox is
// bundled in: its 266 files took some 0.3 s to load at every start of the CLI (reflist --version 0.55 s,
// 0.31 s bundled). It stays a dependency for the declaration's types, which lib/types takes from it.
const packagesButTypebox = {
  name: 'packages-but-typebox',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('@sinclair/typebox') || path.startsWith('node:') ? undefined : { path, external: true },
    );
  },
};
const tree = { ...common, platform: 'neutral' };
await Promise.all([
  // The executable, the programmatic API and the build's thread (`reflist build` runs the build in it) share
  // the builder's chunks; bin.ts's first line is the #!. The chunks sit in lib/, as src/root.ts sits in src/:
  // the package files they find (lib/tree/, the workers) hold from each.
  build({
    ...common,
    entryPoints: { cli: 'src/bin.ts', index: 'src/index.ts', 'build-worker': 'src/commands/build-worker.ts' },
    outdir: 'lib',
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    plugins: [packagesButTypebox],
  }),
  build({
    ...common,
    entryPoints: ['src/write/worker.ts'],
    outfile: 'lib/write-worker.js',
    platform: 'node',
    plugins: [packagesButTypebox],
  }),
  build({
    ...common,
    entryPoints: ['src/write/copy-worker.ts'],
    outfile: 'lib/copy-worker.js',
    platform: 'node',
    plugins: [packagesButTypebox],
  }),
  build({ ...tree, entryPoints: ['src/client/index.ts'], outfile: 'lib/tree/lookup-client.js' }),
  build({ ...tree, entryPoints: ['src/adapters/cloudflare.ts'], outfile: 'lib/tree/_worker.js' }),
  build({ ...tree, entryPoints: ['src/adapters/netlify.ts'], outfile: 'lib/tree/_netlify/lib/reflist.js' }),
  build({
    ...tree,
    entryPoints: ['src/widgets/react-select.ts', 'src/widgets/tom-select.ts', 'src/widgets/choices.ts'],
    outdir: 'lib/widgets',
    plugins: [fromClient],
  }),
  // A classic script: `navigator.serviceWorker.register(url)` needs no { type: 'module' }.
  build({
    ...tree,
    entryPoints: ['src/adapters/service-worker.ts'],
    outfile: 'lib/tree/lookup-sw.js',
    format: 'iife',
    logOverride: { 'empty-import-meta': 'silent' },
  }), // the client then asks for baseUrl, which the worker passes
]);

// The sources lib/ was made from, so that code run from src/ (the tests, tsx) refuses a stale lib/: hashed by
// src/root.ts's own sourceHash, which checkLib compares with, bundled here in memory.
const { outputFiles } = await build({ ...common, entryPoints: ['src/root.ts'], platform: 'node', write: false });
const { sourceHash } = await import(
  `data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`
);
writeFileSync('lib/source-stamp.json', `${JSON.stringify({ src: sourceHash('src') })}\n`);

// The JSON Schema editors read, written from the one the build checks configs by (scripts/schema.ts), so
// that a package never ships another; test/e2e/config.test.ts holds the committed file to it.
const schema = await build({ ...common, entryPoints: ['scripts/schema.ts'], platform: 'node', write: false });
const { SCHEMA_FILE, schemaText } = await import(
  `data:text/javascript;base64,${Buffer.from(schema.outputFiles[0].text).toString('base64')}`
);
writeFileSync(SCHEMA_FILE, schemaText());
