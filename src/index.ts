// reflist's programmatic API (`import { build } from 'reflist'`): what the
// CLI runs, for build scripts and tools of one's own. The client is
// `reflist/client` (src/client/index.ts), the file every tree carries.
export { build, DEFAULT_PAGE_SIZE } from './build.js';
export type { BuildOptions, BuildReport } from './build.js';
export type { How } from './plan/plan.js';
export type { Section } from './tree-files.js';
export type { WriteReport } from './write/write.js';
export { HOSTS } from './config/hosts.js';
export type { Host, HostName } from './config/hosts.js';
export type { Misfit, TreeSize } from './write/fit.js';
export type { Progress } from './progress.js';
export { createCompatServer } from './commands/serve.js';
export type { ServeOptions } from './commands/serve.js';
export { ReflistError, ReflistErrors } from './errors.js';
export type { ErrorCode } from './errors.js';
