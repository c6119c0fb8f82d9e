// Bundles the CLI and its writer thread for Node, and the client into the single dependency-free
// ESM file that every built tree carries as lookup-client.js.
import { build } from 'esbuild';

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['src/bin.ts'], outfile: 'lib/cli.js', platform: 'node', packages: 'external',
    banner: { js: '#!/usr/bin/env node' } }),
  build({ ...common, entryPoints: ['src/write-worker.ts'], outfile: 'lib/write-worker.js', platform: 'node', packages: 'external' }),
  build({ ...common, entryPoints: ['src/client/index.ts'], outfile: 'lib/lookup-client.js', platform: 'neutral' }),
]);
