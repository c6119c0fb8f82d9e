// The drop-down demo's widget scripts: the versions the demo works with,
// where each script comes from (the installed package, or jsDelivr at the
// pinned version), and the React bundle. `reflist dev` serves them at
// /demo/vendor/ and `npm run preview` copies them, from this one table.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild'; // esbuild itself is imported only when the demo asks for React
import { packageFile } from '../root.js';

/** The package's demo/ (`root.ts` finds it from source and bundle alike). */
export const DEMO = fileURLToPath(packageFile('demo/'));

/**
 * The widget packages the demo runs on: the versions it works with, as
 * `npm install --save-dev jquery@3` names them (select2 4.1 needs jQuery 3;
 * on jQuery 4 it stops at "isArray is not a function"), and the version
 * jsDelivr serves where none of them is installed, package-lock.json's.
 */
export const DEMO_PACKAGES: ReadonlyMap<string, readonly [range: string, pinned: string]> = new Map([
  ['jquery', ['3', '3.8.0']],
  ['select2', ['4.1', '4.1.0']],
  ['tom-select', ['2', '2.6.2']],
  ['choices.js', ['11', '11.2.4']],
] as const);

/** The demo's scripts: `/demo/vendor/<name>` → package, file. */
export const VENDOR: ReadonlyMap<string, readonly [pkg: string, path: string]> = new Map([
  ['jquery.min.js', ['jquery', 'dist/jquery.min.js']],
  ['select2.min.js', ['select2', 'dist/js/select2.min.js']],
  ['select2.min.css', ['select2', 'dist/css/select2.min.css']],
  ['tom-select.complete.min.js', ['tom-select', 'dist/js/tom-select.complete.min.js']],
  ['tom-select.min.css', ['tom-select', 'dist/css/tom-select.min.css']],
  ['choices.min.js', ['choices.js', 'public/assets/scripts/choices.min.js']],
  ['choices.min.css', ['choices.js', 'public/assets/styles/choices.min.css']],
] as const);

/** The command that installs demo packages at versions it works with: `npm install --save-dev jquery@3 select2@4.1`. */
export const demoInstall = (...pkgs: string[]): string =>
  `npm install --save-dev ${pkgs.map((pkg) => `${pkg}@${DEMO_PACKAGES.get(pkg)![0]}`).join(' ')}`;

/** Whether a version is in a range as npm reads `jquery@3`: 3.8.0 is, 4.0.0 is not. */
export const inRange = (version: string, range: string): boolean =>
  version === range || version.startsWith(`${range}.`);

/** The demo's react-select drop-down: React has no browser build of its own, so the installed packages are bundled. */
export const REACT_VENDOR = 'react-select.js';

/** esbuild's options for demo/react-vendor.js: the installed React, react-dom, react-select and react-select-async-paginate, in one file. */
export const reactVendorBuild: BuildOptions & { write: false } = {
  entryPoints: [join(DEMO, 'react-vendor.js')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  write: false,
  logLevel: 'silent',
  define: { 'process.env.NODE_ENV': '"production"' },
};

/**
 * The demo's react-select bundle (this repository's devDependencies, or a
 * project's own), or undefined when esbuild or one of the packages is not
 * installed: the demo then says so beside that drop-down.
 */
export async function bundleReactVendor(): Promise<string | undefined> {
  try {
    const { build } = await import('esbuild');
    return (await build(reactVendorBuild)).outputFiles![0]!.text;
  } catch {
    return undefined;
  }
}

/** An installed package's folder; through its main file when its exports hide package.json (choices.js). */
function packageRoot(resolve: (id: string) => string, pkg: string): string {
  try {
    return dirname(resolve(`${pkg}/package.json`));
  } catch {
    for (let dir = dirname(resolve(pkg)); dir !== dirname(dir); dir = dirname(dir)) {
      if (basename(dir) === basename(pkg) && existsSync(join(dir, 'package.json'))) return dir;
    }
    throw new Error(`${pkg}: no package folder`);
  }
}

/** A demo script: an installed package's file, or jsDelivr's at the pinned version (with the version installed, if the demo does not work with it). */
export type VendorSource = { root: string; path: string } | { redirect: string; installed?: string };

/**
 * Where each demo script comes from: the installed package (they are this
 * repository's devDependencies) at a version the demo works with, else
 * jsDelivr at the pinned version, for an installed reflist that has no jQuery
 * or select2 beside it, or a jQuery 4.
 */
export function vendorSources(resolve: (id: string) => string): Map<string, VendorSource> {
  return new Map(
    [...VENDOR].map(([name, [pkg, path]]): [string, VendorSource] => {
      const [range, pinned] = DEMO_PACKAGES.get(pkg)!;
      const redirect = `https://cdn.jsdelivr.net/npm/${pkg}@${pinned}/${path}`;
      let root: string;
      try {
        root = packageRoot(resolve, pkg);
      } catch {
        return [name, { redirect }];
      }
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
      return [name, inRange(version, range) ? { root, path } : { redirect, installed: version }];
    }),
  );
}

/** One line for each demo package installed at a version the demo does not work with. */
export function vendorWarnings(sources: ReadonlyMap<string, VendorSource>): string[] {
  const wrong = new Map(
    [...sources].flatMap(([name, source]) =>
      'installed' in source && source.installed ? [[VENDOR.get(name)![0], source.installed]] : [],
    ),
  );
  return [...wrong].map(([pkg, version]) => {
    const [range, pinned] = DEMO_PACKAGES.get(pkg)!;
    return `the demo works with ${pkg} ${range}.x, not the installed ${version}: it takes ${pkg} ${pinned} from jsDelivr (${demoInstall(pkg)} to serve it offline)`;
  });
}
