import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../../src/cli.js';
import { nextCommands, packageName } from '../../src/commands/init.js';
import { PRESETS } from '../../src/config/preset.js';
import type { Envelope } from '../../src/client/types.js';
import { snapshotTree, tempDir, treeClient } from '../helpers.js';
import { fileAnswer } from '../../src/client/client.js';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const SHIPPED = new URL('../../sources/', import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OWN = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const VENDORED = `vendor/reflist-${OWN.version}.tgz`;
const scaffold = (preset: keyof typeof PRESETS) => [
  'README.md',
  'package.json',
  '.gitignore',
  '.github/workflows/pages.yml',
  'sources/reflist.config.json',
  ...PRESETS[preset].sources.map((s) => `sources/${s.file}`),
  VENDORED,
];
const SCAFFOLD = scaffold('example');

/** A client reading a built tree straight from disk. */
function diskClient(root: string) {
  return treeClient(root, {
    baseUrl: 'file:/',
    fetch: async (url) => {
      try {
        return fileAnswer(readFileSync(join(root, url.slice('file:/'.length))));
      } catch {
        return fileAnswer(undefined);
      }
    },
  });
}

describe('reflist init', () => {
  test('writes a project whose example lists build with no errors and answer through the client', async () => {
    const dir = join(tempDir(), 'my-lists');
    const init = await cli(['init', dir]);
    expect(init).toMatchObject({ code: 0, stderr: '' });
    for (const path of SCAFFOLD) expect(existsSync(join(dir, path)), path).toBe(true);

    const built = await cli(['build', '--sources', join(dir, 'sources'), '--out', join(dir, 'dist')]);
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.stdout).not.toMatch(/absent|error/i);
    const client = await diskClient(join(dir, 'dist'));
    // Labels that start with the term first, then those with a word that does.
    const museums = (await client.request('/institution.json?Term=mus')).body as {
      total: number;
      items: { id: string }[];
    };
    expect(museums.items[0]).toEqual({
      id: 'DE-MFN',
      text: 'Museum für Naturkunde (Berlin)',
      city: 'Berlin',
      country: 'DE',
    });
    expect(museums.items.map((i) => i.id)).toEqual(['DE-MFN', 'FR-MNHN', 'US-FMNH', 'JP-NSM']);
    expect((await client.request('/country/US/institution.json')).body).toEqual({
      total: 2,
      items: [
        { id: 'US-FMNH', text: 'Field Museum (Chicago)' },
        { id: 'US-SI', text: 'Smithsonian Institution (Washington)' },
      ],
    });
    expect((await client.request('/family/1/genus/10/species.json')).body).toEqual({
      total: 2,
      items: [
        { id: 101, text: 'Quercus petraea' },
        { id: 100, text: 'Quercus robur' },
      ],
    });
    expect((await client.request('/species.json?Term=quer&Collection=herbarium')).body).toEqual({
      total: 2,
      items: [
        { id: 101, text: 'Quercus petraea', vernacular: 'Sessile oak', count: 45 },
        { id: 100, text: 'Quercus robur', vernacular: 'English oak', count: 120 },
      ],
    });
    // A common name or a country code is searched too, after every label match.
    const ids = async (url: string) =>
      ((await client.request(url)).body as { items: { id: unknown }[] }).items.map((i) => i.id);
    expect(await ids('/species.json?Term=oak')).toEqual([101, 100]);
    expect(await ids('/species.json?Term=c')).toEqual([310, 200, 210]); // Felis catus, Rosa canina, then Prunus avium by "Wild cherry"
    expect(await ids('/institution.json?Term=us')).toEqual(['US-FMNH', 'US-SI']);
  });

  test('--preset lookup-service writes a project of the original service, which builds and answers', async () => {
    const dir = join(tempDir(), 'service');
    expect((await cli(['init', dir, '--preset', 'lookup-service'])).code).toBe(0);
    for (const path of scaffold('lookup-service')) expect(existsSync(join(dir, path)), path).toBe(true);
    expect((await cli(['build', '--quiet', '--sources', join(dir, 'sources'), '--out', join(dir, 'dist')])).code).toBe(
      0,
    );
    const client = await diskClient(join(dir, 'dist'));
    expect((await client.request('/author.json?System=gbif&Term=muller')).body).toEqual({
      total: 1,
      items: [{ id: 1, text: 'Müller, Anna', count: 12 }],
    });
    const division = await client.request<Envelope<{ count: number; children: unknown[] }>>(
      '/division.json?System=col&Id=1',
    );
    if (division.status !== 200) throw new Error(division.body.error);
    expect(division.body.items[0]).toMatchObject({
      count: 7,
      children: [
        { id: 1, text: 'Primates' },
        { id: 2, text: 'Rodentia' },
      ],
    });
    expect((await client.request('/country/840/state/6/county/6037.json')).body).toMatchObject({
      county: 'Los Angeles',
    });
  });

  test('with the lookup-service preset, gives every source the build reads a file with the header of the shipped one', async () => {
    const dir = join(tempDir(), 'lists');
    expect((await cli(['init', dir, '--preset', 'lookup-service'])).code).toBe(0);
    const firstLine = (text: string) => text.split('\n')[0];
    for (const { file: source } of PRESETS['lookup-service'].sources) {
      const shipped = firstLine(readFileSync(new URL(source, SHIPPED), 'utf8'));
      const lines = readFileSync(join(dir, 'sources', source), 'utf8')
        .trimEnd()
        .split('\n');
      expect(lines[0], source).toBe(shipped);
      expect(lines.length - 1, `${source}: example rows`).toBeGreaterThanOrEqual(2);
    }
  });

  test("writes a package.json with the build, dev, serve and types scripts and this reflist's version", async () => {
    const dir = join(tempDir(), 'Reference Lists');
    expect((await cli(['init', dir])).code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toEqual({
      name: 'reference-lists',
      private: true,
      type: 'module',
      scripts: {
        build: 'reflist build --sources sources --out dist',
        dev: 'reflist dev --sources sources --out dist',
        serve: 'reflist serve --dir dist',
        types: 'reflist types --sources sources',
      },
      devDependencies: { reflist: `file:${VENDORED}` },
    });
  });

  test('writes a README that names the four widgets, says where reflist comes from and how the demo runs offline, and links to no registry page', async () => {
    const dir = join(tempDir(), 'lists');
    expect((await cli(['init', dir])).code).toBe(0);
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(readme.split('\n').slice(0, 6).join(' ')).toMatch(/select2, react-select, Tom Select and Choices\.js/);
    expect(readme).toContain(`npm install      # once: installs reflist from ${VENDORED}\n`);
    expect(readme).toContain('`npm install --save-dev jquery@3 select2@4.1`');
    expect(readme).not.toMatch(/npmjs\.com|https?:\/\/(?!OWNER)/);
  });

  test('puts the reflist it runs from into vendor/: the files npm pack packs, under package/, byte for byte', async () => {
    const dir = join(tempDir(), 'lists');
    expect((await cli(['init', dir])).code).toBe(0);
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
    ) as [{ files: { path: string }[] }];
    const expected = packed[0].files.map((f) => f.path).sort();
    const unpacked = tempDir();
    execFileSync('tar', ['-xzf', join(dir, VENDORED), '-C', unpacked]);
    expect([...snapshotTree(join(unpacked, 'package')).keys()].sort()).toEqual(expected);
    for (const path of expected)
      expect(readFileSync(join(unpacked, 'package', path)), path).toEqual(readFileSync(join(ROOT, path)));
  });

  test('writes a workflow that builds the tree and hands dist to GitHub Pages', async () => {
    const dir = join(tempDir(), 'lists');
    expect((await cli(['init', dir])).code).toBe(0);
    const workflow = readFileSync(join(dir, '.github/workflows/pages.yml'), 'utf8');
    for (const line of [
      'branches: [main]',
      'workflow_dispatch:',
      'pages: write',
      'id-token: write',
      'contents: read',
      'uses: actions/checkout@v4',
      'uses: actions/setup-node@v4',
      'node-version: 20',
      'run: npm install',
      'run: npm run build',
      'uses: actions/upload-pages-artifact@v3',
      'path: dist',
      'uses: actions/deploy-pages@v4',
    ])
      expect(workflow).toContain(line);
    expect(workflow.indexOf('run: npm run build')).toBeLessThan(workflow.indexOf('upload-pages-artifact'));
  });

  test('keeps the built tree and its generations out of git, and everything else in', async () => {
    const dir = join(tempDir(), 'lists');
    expect((await cli(['init', dir])).code).toBe(0);
    expect((await cli(['build', '--quiet', '--sources', join(dir, 'sources'), '--out', join(dir, 'dist')])).code).toBe(
      0,
    );
    execFileSync('git', ['init', '-q', dir]);
    const untracked = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=all'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    expect(untracked.sort()).toEqual([...SCAFFOLD].sort());
  });

  test('refuses a folder holding files it would write: names them all, changes none and writes nothing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sources'));
    writeFileSync(join(dir, 'README.md'), '# my notes\n');
    writeFileSync(join(dir, 'sources', 'family.csv'), 'id,text\r\n7,Pinaceae\r\n');
    writeFileSync(join(dir, 'notes.txt'), 'keep me');
    const before = snapshotTree(dir);
    const { code, stdout, stderr } = await cli(['init', dir]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`init: refusing to overwrite 2 existing files in ${dir}: README.md, sources/family.csv`);
    expect(snapshotTree(dir)).toEqual(before);
  });

  test('refuses a file where one of its folders must go', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'sources'), 'not a folder');
    const { code, stderr } = await cli(['init', dir]);
    expect(code).toBe(1);
    expect(stderr).toContain('refusing to overwrite 1 existing file');
    expect(stderr).toContain(': sources (');
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
  });

  test('uses a folder that holds only files of its own, and leaves them alone', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'keep me');
    expect((await cli(['init', dir])).code).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(dir, 'sources', 'species_count.csv'))).toBe(true);
  });

  test('creates a folder that does not exist, and says what it wrote and what to type next', async () => {
    const dir = join(tempDir(), 'new', 'lists');
    const { code, stdout } = await cli(['init', dir]);
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'sources', 'species.csv'))).toBe(true);
    expect(stdout).toContain(`wrote ${SCAFFOLD.length} files in ${dir}:`);
    for (const path of SCAFFOLD) expect(stdout).toContain(`  ${path}\n`);
    expect(stdout).toContain(`next:\n  cd ${dir}\n  npm install\n  npm run build\n  npm run dev\n`);
  });

  test("--preset lookup-service writes the service's declaration, the one the shipped sources carry; an unknown preset is named", async () => {
    const dir = join(tempDir(), 'service');
    expect((await cli(['init', dir, '--preset', 'lookup-service'])).code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'sources', 'reflist.config.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const shipped = JSON.parse(readFileSync(new URL('reflist.config.json', SHIPPED), 'utf8')) as Record<
      string,
      unknown
    >;
    expect({ ...written, $schema: '' }).toEqual({ ...shipped, $schema: '' });
    expect(written['$schema']).toBe('../node_modules/reflist/schema/reflist.config.schema.json');
    const other = join(tempDir(), 'other');
    expect(await cli(['init', other, '--preset', 'lookup-servce'])).toMatchObject({
      code: 1,
      stderr:
        '--preset: no preset "lookup-servce" (did you mean "lookup-service"?); expected example, lookup-service\n',
    });
    expect(existsSync(other)).toBe(false);
  });

  test('names a path that is a file, not a folder', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    const { code, stderr } = await cli(['init', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`init: ${file} is a file, not a folder`);
  });

  test('--help says what it writes and that it overwrites nothing', async () => {
    const { code, stdout } = await cli(['init', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('[dir]');
    expect(stdout).toContain('writes nothing');
  });
});

describe('the project', () => {
  test.each(['README.md', 'docs/lists.md'])(
    '%s starts a project with init from the tarball, then the steps init prints',
    (doc) => {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      const block =
        /```sh\n(npx --yes --package \.\/reflist-[\d.]+\.tgz reflist init my-lists && cd my-lists\n[\s\S]*?)```/.exec(
          text,
        )?.[1];
      expect(block, `${doc}: the init block`).toBeDefined();
      const commands = block!
        .trim()
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, ''));
      expect(commands.slice(1)).toEqual(nextCommands('my-lists').slice(1));
    },
  );

  test.each([
    ['my-lists', 'my-lists'],
    ['Reference Lists', 'reference-lists'],
    ['Bücher (2024)', 'bucher-2024'],
    ['.hidden_', 'hidden'],
    ['reflist', 'reflist-lists'],
    ['http', 'http-lists'],
    ['日本', 'my-lists'],
  ])('folder %j is the npm package %j', (folder, name) => {
    expect(packageName(folder)).toBe(name);
  });

  test.each([
    ['.', ['npm install', 'npm run build', 'npm run dev']],
    ['lists', ['cd lists', 'npm install', 'npm run build', 'npm run dev']],
    ["Anna's lists", [`cd 'Anna'\\''s lists'`, 'npm install', 'npm run build', 'npm run dev']],
  ])('in %j, the next commands are %j', (dir, commands) => {
    expect(nextCommands(dir)).toEqual(commands);
  });
});
