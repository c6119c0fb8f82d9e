// Bundles the CLI and its writer thread for Node, and the scripts every built tree carries
// at its root (the client and the host adapters), each a single dependency-free file.
import { build } from 'esbuild';

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning' };
const tree = { ...common, platform: 'neutral' };
await Promise.all([
  build({ ...common, entryPoints: ['src/bin.ts'], outfile: 'lib/cli.js', platform: 'node', packages: 'external',
    banner: { js: '#!/usr/bin/env node' } }),
  build({ ...common, entryPoints: ['src/write-worker.ts'], outfile: 'lib/write-worker.js', platform: 'node', packages: 'external' }),
  build({ ...tree, entryPoints: ['src/client/index.ts'], outfile: 'lib/tree/lookup-client.js' }),
  build({ ...tree, entryPoints: ['src/adapters/cloudflare.ts'], outfile: 'lib/tree/_worker.js' }),
  build({ ...tree, entryPoints: ['src/adapters/netlify.ts'], outfile: 'lib/tree/_netlify/reflist.js' }),
  // A classic script: `navigator.serviceWorker.register(url)` needs no { type: 'module' }.
  build({ ...tree, entryPoints: ['src/adapters/service-worker.ts'], outfile: 'lib/tree/lookup-sw.js', format: 'iife',
    logOverride: { 'empty-import-meta': 'silent' } }), // the client then asks for baseUrl, which the worker passes
]);
