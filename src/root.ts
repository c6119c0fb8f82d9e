// The package's own files beside its code (lib/, demo/, package.json) are
// found from here: this module sits one folder below the package's root both
// as source (src/root.ts) and bundled (a chunk in lib/), wherever the modules
// that ask for them are.
export const packageFile = (path: string): URL => new URL(`../${path}`, import.meta.url);
