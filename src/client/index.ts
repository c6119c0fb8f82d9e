// lookup-client.js: the dependency-free ESM client every tree carries at its root.
export { createLookupClient } from './client.js';
export type { Answer, LookupClient, LookupClientOptions } from './client.js';
export { fold } from './fold.js';
