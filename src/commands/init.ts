// `reflist init`: a folder for a user's own lists, from which `npm install` and
// `npm run build` give a tree, in a clean checkout too: the project carries the
// reflist it installs in vendor/ (tarball.ts). scaffold() is the folder's
// content, pure; init() checks the folder and writes it. The templates are
// strings in this module so that the bundle (lib/cli.js) carries them and the
// package ships no extra files.
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRESETS, type Preset, type PresetName } from '../config/preset.js';
import { ReflistError, suggest } from '../errors.js';
import { packageFile } from '../root.js';
import type { Io } from '../progress.js';
import { demoInstall } from './demo-vendor.js';
import { packageFiles, tarball } from './tarball.js';

const README = (name: string, preset: Preset, vendor: string) => `# ${name}

Reference lists for drop-downs: select2, react-select, Tom Select and
Choices.js. reflist builds the CSV files in \`sources/\` into \`dist/\`: static
JSON files that any static host can serve and each widget can read, with
\`lookup-client.js\` to answer searches, pages, ids and counts.

## The lists

\`sources/reflist.config.json\` declares the lists: which file each is read
from, its id, its label, where it lives and what it answers (reflist's
docs/lists.md). Edit the files in \`sources/\`; the example rows in them are
there to be replaced. Keep each file's header row (its columns may come in
any order).

| file | header | what |
|---|---|---|
${preset.sources.map((s) => `| \`sources/${s.file}\` | \`${header(s.text)}\` | ${s.purpose} |`).join('\n')}

Ids are what the config declares (integers ≥ 0 by default), labels are not
empty, and a row refers only to rows that exist. A build with any error
prints each as \`file:line: message\` and changes nothing.

## Commands

\`\`\`sh
npm install      # once: installs reflist from ${vendor}
npm run build    # sources/ → dist/
npm run dev      # see the drop-downs change while you edit sources/
npm run serve    # serves dist/, answering the query URLs (${preset.example})
npm run types    # reflist-lists.d.ts: the lists' types, for reflist/client in TypeScript
\`\`\`

\`npm run dev\`'s demo takes jQuery and select2 from jsDelivr; to run it
offline, install them first: \`${demoInstall('jquery', 'select2')}\` (select2
4.1 needs jQuery 3).

reflist is on no npm registry: \`${vendor}\` is the package \`reflist init\`
ran from, and \`package.json\` installs it from there, so that a clean
checkout (the Pages workflow's) installs it too. Commit it. Another version
is another tarball: put it in \`vendor/\` and
\`npm install --save-dev ./vendor/reflist-VERSION.tgz\`.

## Deploy

Pushing to \`main\` runs \`.github/workflows/pages.yml\`, which builds the tree
and publishes \`dist/\` with GitHub Pages. Enable it once in the repository's
Settings → Pages → Build and deployment → Source: "GitHub Actions". The tree
is then at \`https://OWNER.github.io/REPO/\`.

## More

reflist's documentation is in \`node_modules/reflist/README.md\` after
\`npm install\`.
`;

const WORKFLOW = `# Builds the tree from sources/ and publishes it with GitHub Pages.
# Enable it once: Settings → Pages → Build and deployment → Source: "GitHub Actions".
name: Pages

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      # A new project has no package-lock.json, which npm ci needs. Once you
      # commit the one npm install writes, use npm ci here (and cache: npm above).
      - run: npm install
      - run: npm run build
      # dist is a link to the generation the build swapped in, in .reflist/;
      # the upload follows it.
      - uses: actions/upload-pages-artifact@v3
        with:
          path: dist

  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
`;

// dist is a link, not a folder, so the pattern has no trailing slash; .reflist/ is the build's state.
const GITIGNORE = `node_modules/
dist
.reflist/
`;

function header(csv: string): string {
  return csv.slice(0, csv.indexOf('\n'));
}

/** Where a new project keeps the reflist it installs. */
export const vendored = (version: string) => `vendor/reflist-${version}.tgz`;

/** Every file of a new project, by its path inside the project's folder; `packed` is the reflist package it installs. */
export function scaffold(
  name: string,
  version: string,
  packed: Uint8Array,
  preset: PresetName = 'example',
): Map<string, string | Uint8Array> {
  const pkg = {
    name,
    private: true,
    type: 'module',
    scripts: {
      build: 'reflist build --sources sources --out dist',
      dev: 'reflist dev --sources sources --out dist',
      serve: 'reflist serve --dir dist',
      types: 'reflist types --sources sources',
    },
    devDependencies: { reflist: `file:${vendored(version)}` },
  };
  return new Map<string, string | Uint8Array>([
    ['README.md', README(name, PRESETS[preset], vendored(version))],
    ['package.json', `${JSON.stringify(pkg, null, 2)}\n`],
    ['.gitignore', GITIGNORE],
    ['.github/workflows/pages.yml', WORKFLOW],
    ['sources/reflist.config.json', `${JSON.stringify(PRESETS[preset].config, null, 2)}\n`],
    ...PRESETS[preset].sources.map((s): [string, string] => [`sources/${s.file}`, s.text]),
    [vendored(version), packed],
  ]);
}

/**
 * A valid npm package name from a folder's name: lower case, URL-safe, no
 * leading dot or underscore, and not a name npm refuses (a Node built-in, or
 * reflist itself, which a package cannot depend on under its own name).
 */
export function packageName(folder: string): string {
  const name = folder
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .slice(0, 200)
    .replace(/^[._-]+|[._-]+$/g, '');
  const refused =
    name === '' || name === 'reflist' || name === 'node_modules' || name === 'favicon.ico' || isBuiltin(name);
  return refused ? `${name || 'my'}-lists` : name;
}

/** What to type next; `cd` only when the project is not the current folder. */
export function nextCommands(dir: string): string[] {
  const cd = resolve(dir) === process.cwd() ? [] : [`cd ${shellWord(dir)}`];
  return [...cd, 'npm install', 'npm run build', 'npm run dev'];
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** reflist's own version, from the package.json one folder up from both src/ and lib/. */
export function ownVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string')
    throw new ReflistError('INVALID_OPTION', "reflist's package.json has no version");
  return pkg.version;
}

/** The reflist package this runs from, as a tarball; refused when its lib/ was never built (a clone before `npm run compile`). */
function ownTarball(): Buffer {
  const root = fileURLToPath(packageFile(''));
  const files = packageFiles(root);
  if (!files.some((f) => f.path === 'lib/cli.js')) {
    throw new ReflistError(
      'INVALID_OPTION',
      `init: ${root} has no lib/cli.js to put in the project's vendor/; run npm run compile there first`,
    );
  }
  return tarball(files);
}

/** The kind of entry at path, if any; a dangling link counts as an entry. */
function entry(path: string): 'folder' | 'other' | undefined {
  try {
    return lstatSync(path).isDirectory() ? 'folder' : 'other';
  } catch {
    return undefined;
  }
}

/** The paths init would overwrite, or write through (a file where a folder of its paths must go). */
function inTheWay(root: string, paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (entry(join(root, folder)) === 'other') found.add(folder);
    }
    if (entry(join(root, path)) !== undefined) found.add(path);
  }
  return [...found];
}

/** Writes the scaffold into dir (created if missing), or nothing at all when any of its files is there already. */
export function init(dir: string, io: Pick<Io, 'stdout'>, preset: string = 'example'): void {
  const root = resolve(dir);
  if (!Object.hasOwn(PRESETS, preset)) {
    const names = Object.keys(PRESETS);
    const hint = suggest(preset, names);
    throw new ReflistError(
      'INVALID_OPTION',
      `--preset: no preset "${preset}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected ${names.join(', ')}`,
    );
  }
  if (entry(root) === 'other') throw new ReflistError('INVALID_OPTION', `init: ${dir} is a file, not a folder`);
  const files = scaffold(packageName(basename(root)), ownVersion(), ownTarball(), preset as PresetName);
  const existing = inTheWay(root, [...files.keys()]);
  if (existing.length > 0) {
    const n = existing.length;
    throw new ReflistError(
      'IN_THE_WAY',
      `init: refusing to overwrite ${n} existing file${n > 1 ? 's' : ''} in ${dir}: ${existing.join(', ')} (move them away or init another folder)`,
    );
  }
  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    // 'wx': a file that appeared since the check above is still not overwritten.
    writeFileSync(join(root, path), text, { flag: 'wx' });
  }
  const indent = (lines: string[]) => lines.map((line) => `  ${line}\n`).join('');
  io.stdout(`wrote ${files.size} files in ${dir}:\n${indent([...files.keys()])}next:\n${indent(nextCommands(dir))}`);
}
