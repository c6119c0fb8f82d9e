// reflist as a user installs it: `npm pack` on a copy of the project as a
// fresh clone has it (no lib/), the tarball installed into a new project, the
// CLI run there by npx, the client imported by name, and a strict TypeScript
// consumer type-checked. Needs the npm registry for its dependencies (commander, csv-parse, sirv, @sinclair/typebox).
import { describe, expect, test } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build as esbuild } from 'esbuild';
import { CHROMIUM, DemoPage, launchChromium } from '../../scripts/demo-page.js';
import type { LookupClient } from '../../src/client/client.js';
import { DEMO_PACKAGES, inRange } from '../../src/commands/dev.js';
import { VALID } from '../fixtures/valid.js';
import { startServe, tempDir, writeSources } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const run = (cwd: string, command: string, args: string[], env: Record<string, string> = {}) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
};

/** The project as a fresh clone after `npm ci` has it: no lib/, no built tree; node_modules linked. */
function freshCopy(): string {
  const copy = join(tempDir('reflist-pack-'), 'reflist');
  const skip = new Set(['node_modules', 'lib', '.git', 'dist', '.reflist', 'test-output', '.preview']);
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (src) => !skip.has(src.slice(ROOT.length + 1).split('/')[0]!) && !/\/\.dist\./.test(src),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

test('engines names a Node that has the node: APIs src uses (crypto.hash came in 20.12)', () => {
  const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
    .engines;
  const [major, minor] = /^>=(\d+)\.(\d+)/.exec(engines.node)!.slice(1).map(Number) as [number, number];
  const usesHash = /import \{[^}]*\bhash\b[^}]*\} from 'node:crypto'/.test(
    readFileSync(join(ROOT, 'src/write/write.ts'), 'utf8'),
  );
  expect({ usesHash, atLeast2012: major > 20 || (major === 20 && minor >= 12) }).toEqual({
    usesHash: true,
    atLeast2012: true,
  });
});

describe('the npm package', () => {
  const project = tempDir('reflist-consumer-');
  let files: string[] = [];
  /** The clean clone of an init project, and its npm cache, once the Pages workflow's commands ran there. */
  let checkout: { clone: string; cache: string } | undefined;

  test('npm pack builds the CLI, the API and the client, and packs only what a user runs', () => {
    const copy = freshCopy();
    const packed = run(copy, 'npm', ['pack', '--silent', '--pack-destination', project]);
    expect(packed.status, packed.out).toBe(0);
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
    files = execFileSync('tar', ['-tzf', join(project, tarball)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    for (const file of [
      'lib/cli.js',
      'lib/index.js',
      'lib/write-worker.js',
      'lib/build-worker.js',
      'lib/tree/lookup-client.js',
      'lib/tree/_worker.js',
      'lib/types/index.d.ts',
      'lib/types/client/index.d.ts',
      'demo/index.html',
      'README.md',
      'LICENSE',
      'package.json',
      ...['react-select', 'tom-select', 'choices'].flatMap((w) => [
        `lib/widgets/${w}.js`,
        `lib/types/widgets/${w}.d.ts`,
      ]),
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /^(test|sources|scripts|src|\.ci|docs)\//.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@sinclair/typebox', 'commander', 'csv-parse', 'sirv']);
  }, 180_000);

  test("installed into a new project, npx reflist build writes the tree from that project's CSVs", () => {
    expect(files.length).toBeGreaterThan(0);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
    const installed = run(project, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`]);
    expect(installed.status, installed.out).toBe(0);
    writeSources(join(project, 'data'), VALID);
    const built = run(project, 'npx', ['--no', 'reflist', 'build', '--sources', 'data', '--out', 'public/lookup']);
    expect(built.status, built.out).toBe(0);
    expect(built.out).toContain('tree: ');
    expect(JSON.parse(readFileSync(join(project, 'public/lookup/author.json'), 'utf8')).total).toBe(4);
  }, 180_000);

  test("init from the tarball as the README says, committed and cloned: the Pages workflow's install and build pass in the clean clone, each with an empty npm cache", () => {
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
    const home = tempDir('reflist-first-deploy-');
    copyFileSync(join(project, tarball), join(home, tarball));
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const initLine = /^npx .*reflist init my-lists.*$/m.exec(readme)![0];
    expect(initLine).toContain(`--package ./${tarball} `);
    const scaffolded = run(home, 'sh', ['-c', initLine], { npm_config_cache: join(home, 'empty-cache') });
    expect(scaffolded.status, scaffolded.out).toBe(0);
    expect(scaffolded.out).toContain('next:\n  cd my-lists\n  npm install\n  npm run build\n  npm run dev\n');

    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Lists', '-c', 'user.email=lists@example.org', ...args], {
        cwd,
        encoding: 'utf8',
      });
    git(join(home, 'my-lists'), 'init', '-q', '-b', 'main');
    git(join(home, 'my-lists'), 'add', '.');
    git(join(home, 'my-lists'), 'commit', '-q', '-m', 'lists');
    const clone = join(tempDir('reflist-checkout-'), 'my-lists');
    git(home, 'clone', '-q', join(home, 'my-lists'), clone);
    // The clone holds only what was committed: no node_modules, no tarball outside the project.
    expect(readdirSync(clone).sort()).toEqual([
      '.git',
      '.github',
      '.gitignore',
      'README.md',
      'package.json',
      'sources',
      'vendor',
    ]);

    const workflow = readFileSync(join(clone, '.github/workflows/pages.yml'), 'utf8');
    const commands = [...workflow.matchAll(/^ +- run: (.+)$/gm)].map((m) => m[1]!);
    expect(commands).toEqual(['npm install', 'npm run build']);
    const cache = tempDir('reflist-ci-cache-');
    for (const command of commands) {
      const ran = run(clone, 'sh', ['-c', command], { npm_config_cache: cache });
      expect(ran.status, `${command}\n${ran.out}`).toBe(0);
    }
    const uploaded = /upload-pages-artifact@v3\n +with:\n +path: (\S+)\n/.exec(workflow)![1]!;
    expect(JSON.parse(readFileSync(join(clone, uploaded, 'lookup.json'), 'utf8')).lists.species.total).toBeGreaterThan(
      0,
    );
    const typed = run(clone, 'npm', ['run', 'types']);
    expect(typed.status, typed.out).toBe(0);
    expect(readFileSync(join(clone, 'reflist-lists.d.ts'), 'utf8')).toContain('export type SpeciesItem = {');
    checkout = { clone, cache };
  }, 300_000);

  test.skipIf(!existsSync(CHROMIUM))(
    "the demo's advice, followed in that project, gives a working demo offline: select2 from the installed jQuery 3 and select2 4.1",
    async () => {
      expect(checkout).toBeDefined();
      const { clone, cache } = checkout!;
      // The advice a person reads where select2 could not be loaded, from the installed demo.
      const advice = /npm install --save-dev [^:)]+/.exec(
        readFileSync(join(clone, 'node_modules/reflist/demo/demo.js'), 'utf8'),
      )![0];
      expect(advice).toBe('npm install --save-dev jquery@3 select2@4.1');
      const installed = run(clone, 'sh', ['-c', advice], { npm_config_cache: cache });
      expect(installed.status, installed.out).toBe(0);
      const versions = ['jquery', 'select2'].map(
        (pkg) => JSON.parse(readFileSync(join(clone, 'node_modules', pkg, 'package.json'), 'utf8')).version as string,
      );
      expect(versions.map((v, i) => inRange(v, DEMO_PACKAGES.get(['jquery', 'select2'][i]!)![0]))).toEqual([
        true,
        true,
      ]);

      const child = spawn(
        join(clone, 'node_modules/.bin/reflist'),
        ['dev', '--sources', 'sources', '--out', 'dist', '--port', '0'],
        { cwd: clone },
      );
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      const browser = await launchChromium();
      try {
        const deadline = Date.now() + 30_000;
        let url: string | undefined;
        while (!(url = / at (http:\/\/127\.0\.0\.1:\d+\/) — the demo/.exec(out)?.[1])) {
          if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no serving line: ${out}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(out).not.toContain('warning');
        for (const script of ['jquery.min.js', 'select2.min.js'])
          expect((await fetch(`${url}demo/vendor/${script}`, { redirect: 'manual' })).status).toBe(200);
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.route('https://cdn.jsdelivr.net/**', (route) => route.abort()); // offline: Tom Select and Choices.js are not installed
        const demo = new DemoPage(page);
        await demo.goto(`${url}demo/`);
        await demo.choose('institution', 'mus', 'Museum für Naturkunde (Berlin)');
        expect(await demo.selection('institution')).toEqual({
          value: 'DE-MFN',
          text: 'Museum für Naturkunde (Berlin)',
        });
        expect(await page.locator('.failure').count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
        child.kill('SIGINT');
        if (child.exitCode === null) await once(child, 'exit');
      }
    },
    300_000,
  );

  test('import from "reflist/client" answers a Term with a System, and "reflist" builds', () => {
    writeFileSync(
      join(project, 'use.mjs'),
      `
      import { pathToFileURL } from 'node:url';
      import { createLookupClient } from 'reflist/client';
      import { build } from 'reflist';
      const report = await build({ sources: 'data', out: 'again' });
      const client = createLookupClient({ baseUrl: pathToFileURL('public/lookup/') });
      const answer = await client.request('/author.json?Term=sm&System=gbif');
      console.log(JSON.stringify({ files: report.files, answer }));
    `,
    );
    const used = run(project, process.execPath, ['use.mjs']);
    expect(used.status, used.out).toBe(0);
    const { files: built, answer } = JSON.parse(used.out.trim().split('\n').at(-1)!);
    expect(built).toBeGreaterThan(10);
    expect(answer).toEqual({ status: 200, body: { total: 1, items: [{ id: 1, text: 'Smith, John', count: 10 }] } });
  }, 60_000);

  test('a bundler for the browser (esbuild) takes "reflist/client" from the installed package without a warning, and the bundle answers over HTTP', async () => {
    writeFileSync(
      join(project, 'page.js'),
      "import { createLookupClient } from 'reflist/client';\nexport const client = (baseUrl) => createLookupClient({ baseUrl });\n",
    );
    const bundled = await esbuild({
      absWorkingDir: project,
      entryPoints: ['page.js'],
      outfile: 'bundle/page.js',
      bundle: true,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
    });
    expect(bundled.warnings).toEqual([]);
    // The file: reader's node:fs stays a runtime import a browser never reaches, not a bundled one.
    expect(readFileSync(join(project, 'bundle/page.js'), 'utf8')).not.toMatch(/from\s*["']node:/);
    const server = await startServe(join(project, 'public'));
    try {
      const { client } = (await import(pathToFileURL(join(project, 'bundle/page.js')).href)) as {
        client(baseUrl: string): LookupClient;
      };
      expect(await client(`${server.url}lookup/`).request('/author.json?Term=sm&System=gbif')).toEqual({
        status: 200,
        body: { total: 1, items: [{ id: 1, text: 'Smith, John', count: 10 }] },
      });
    } finally {
      await server.stop();
    }
  }, 60_000);

  test('reflist dev serves the original URLs and the demo from the installed package', async () => {
    // The installed bin itself, not through npx, which does not pass Ctrl-C on to it.
    const child = spawn(
      join(project, 'node_modules/.bin/reflist'),
      ['dev', '--sources', 'data', '--out', 'dev-tree', '--port', '0'],
      { cwd: project },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    try {
      const deadline = Date.now() + 30_000;
      let url: string | undefined;
      while (!(url = / at (http:\/\/127\.0\.0\.1:\d+\/) — the demo/.exec(out)?.[1])) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no serving line: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await (await fetch(`${url}author.json?Term=sm`)).json()).toEqual({
        total: 1,
        items: [{ id: 1, text: 'Smith, John' }],
      });
      const demo = await fetch(`${url}demo/`);
      expect(demo.status).toBe(200);
      expect(await demo.text()).toContain('lookup-client.js');
      // jQuery and select2 are not the package's dependencies: the demo gets them from a CDN.
      const vendor = await fetch(`${url}demo/vendor/select2.min.js`, { redirect: 'manual' });
      expect(vendor.status).toBe(302);
    } finally {
      child.kill('SIGINT');
      if (child.exitCode === null) await once(child, 'exit');
    }
    expect(child.exitCode).toBe(0);
  }, 60_000);

  test('the drop-down adapters import by name and answer from the installed package, sharing one client module in a bundle', async () => {
    writeFileSync(
      join(project, 'widgets.mjs'),
      `
      import { pathToFileURL } from 'node:url';
      import { createLookupClient } from 'reflist/client';
      import { loadPage, optionsForIds } from 'reflist/react-select';
      import { tomSelectSettings } from 'reflist/tom-select';
      import { toChoice } from 'reflist/choices';
      const client = createLookupClient({ baseUrl: pathToFileURL('public/lookup/') });
      const page = await loadPage(client, 'author', { group: 'gbif' })('sm');
      const saved = await optionsForIds(client, 'author', ['1', '999']);
      console.log(JSON.stringify({ page, saved, tom: tomSelectSettings(client, 'author').plugins, choice: toChoice(saved.options[0]).value }));
    `,
    );
    const used = run(project, process.execPath, ['widgets.mjs']);
    expect(used.status, used.out).toBe(0);
    const { page, saved, tom, choice } = JSON.parse(used.out.trim().split('\n').at(-1)!);
    const smith = { id: '1', text: 'Smith, John', itemId: 1, count: 10, value: '1', label: 'Smith, John' };
    expect(page).toEqual({ options: [smith], hasMore: false, additional: { page: 2 } });
    expect(saved).toEqual({
      options: [{ id: '1', text: 'Smith, John', itemId: 1, value: '1', label: 'Smith, John' }],
      unknown: ['999'],
    });
    expect(tom).toEqual(['virtual_scroll']);
    expect(choice).toBe('1');
    // A page that uses the client and an adapter carries the client's code once.
    writeFileSync(
      join(project, 'widget-page.js'),
      "import { createLookupClient } from 'reflist/client';\nimport { tomSelectSettings } from 'reflist/tom-select';\n" +
        "export const settings = tomSelectSettings(createLookupClient({ baseUrl: '/lookup/' }), 'author');\n",
    );
    const bundled = await esbuild({
      absWorkingDir: project,
      entryPoints: ['widget-page.js'],
      outfile: 'bundle/widget-page.js',
      bundle: true,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
      metafile: true,
    });
    expect(bundled.warnings).toEqual([]);
    const inputs = Object.keys(bundled.metafile.inputs).filter((f) => f.includes('node_modules/reflist/'));
    expect(inputs.sort()).toEqual([
      'node_modules/reflist/lib/tree/lookup-client.js',
      'node_modules/reflist/lib/widgets/tom-select.js',
    ]);
  }, 60_000);

  test('a strict TypeScript consumer type-checks, and a wrong use of an answer is caught', () => {
    mkdirSync(join(project, 'ts'), { recursive: true });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        include: ['ts'],
      }),
    );
    writeFileSync(
      join(project, 'ts/good.ts'),
      `
      import { createLookupClient, type CountedItem, type Envelope, type Item } from 'reflist/client';
      export async function authors(base: string): Promise<Item[]> {
        const client = createLookupClient({ baseUrl: base });
        const answer = await client.request<Envelope<CountedItem>>('/author.json?Term=sm&System=gbif');
        if (answer.status !== 200) throw new Error(answer.body.error);
        const counts: number[] = answer.body.items.map((item) => item.count);
        const county = await client.request<{ FIPS: number; latitudeCenter: number }>('/country/840/state/6/county/6037.json');
        if (county.status === 200) console.log(county.body.FIPS + 1, county.body.latitudeCenter, counts);
        return answer.body.items;
      }
      // No type named: an item's text where the body has items, with and without narrowing on the status first.
      export async function firstText(base: string): Promise<string | undefined> {
        const client = createLookupClient({ baseUrl: base });
        const { status, body } = await client.request('/author.json?Term=smi');
        const text: string | undefined = 'items' in body ? body.items[0]?.text : undefined;
        if (status !== 200) return text;
        const first: string | undefined = 'items' in body ? body.items[0]?.text : undefined;
        return first;
      }
    `,
    );
    // The adapters take the client reflist/client makes, and say what their options hold.
    writeFileSync(
      join(project, 'ts/widgets.ts'),
      `
      import { createLookupClient } from 'reflist/client';
      import { loadPage } from 'reflist/react-select';
      import { preselect, tomSelectSettings, type TomSelectInstance } from 'reflist/tom-select';
      import { createChoices, type ChoicesInstance } from 'reflist/choices';
      const client = createLookupClient({ baseUrl: '/lookup/' });
      export const settings = tomSelectSettings(client, 'author', { group: () => 'gbif' });
      export async function first(): Promise<number | undefined> {
        const { options } = await loadPage(client, 'author')('smi', [], { page: 1 });
        const option = options[0];
        return option && 'itemId' in option ? option.count : undefined;
      }
      export const restore = (tom: TomSelectInstance) => preselect(tom, client, 'author', [1007, '1016']);
      export const make = (Choices: new (el: string | Element, config: object) => ChoicesInstance) => createChoices(Choices, '#author', client, 'author');
    `,
    );
    const good = run(project, process.execPath, [TSC, '-p', '.']);
    expect(good.status, good.out).toBe(0);
    writeFileSync(
      join(project, 'ts/bad.ts'),
      `
      import { createLookupClient, type Envelope } from 'reflist/client';
      const answer = await createLookupClient({ baseUrl: 'https://example.org/' }).request<Envelope>('/author.json?Term=sm');
      if (answer.status === 200) {
        const total: string = answer.body.total;
        console.log(total);
      }
      const { body } = await createLookupClient({ baseUrl: 'https://example.org/' }).request('/author.json?Term=smi');
      export const id: number | undefined = 'items' in body ? body.items[0]?.text : undefined;
    `,
    );
    const bad = run(project, process.execPath, [TSC, '-p', '.']);
    expect(bad.status).not.toBe(0);
    expect(bad.out).toMatch(/ts\/bad\.ts\(5,15\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(bad.out).toMatch(
      /ts\/bad\.ts\(9,20\): error TS2322: Type 'string \| undefined' is not assignable to type 'number \| undefined'/,
    );
    expect(bad.out).not.toMatch(/good\.ts|node_modules/);
  }, 60_000);

  test("npx reflist types writes the lists' types; with them a strict consumer reads a city's population as a number, and a misuse is caught", () => {
    const dir = join(project, 'typed');
    writeSources(join(dir, 'lists'), {
      'reflist.config.json': JSON.stringify({
        lists: { city: { fields: { population: 'integer', country: 'string' }, items: true } },
      }),
      'city.csv': 'id,text,population,country\n1,Berlin,3878100,DE\n2,Bern,146200,CH\n',
    });
    const typed = run(dir, 'npx', ['--no', 'reflist', 'types', '--sources', 'lists']);
    expect(typed.status, typed.out).toBe(0);
    expect(typed.out).toContain('wrote reflist-lists.d.ts');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        include: ['*.ts'],
      }),
    );
    // The typed client is the one the adapters take.
    writeFileSync(
      join(dir, 'good.ts'),
      `
      import { createLookupClient } from 'reflist/client';
      import { loadPage } from 'reflist/react-select';
      import type { Lists } from './reflist-lists.js';
      const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });
      export async function population(): Promise<number> {
        const { status, body } = await client.request('/city.json?Term=ber');
        if (status !== 200) throw new Error(body.error);
        const population: number = body.items[0].population;
        const city = await client.request('/city/1.json');
        return city.status === 200 ? city.body.population : population;
      }
      export const options = loadPage(client, 'city');
    `,
    );
    const good = run(dir, process.execPath, [TSC, '-p', '.']);
    expect(good.status, good.out).toBe(0);
    writeFileSync(
      join(dir, 'bad.ts'),
      `
      import { createLookupClient } from 'reflist/client';
      import type { Lists } from './reflist-lists.js';
      const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });
      export async function misread(): Promise<void> {
        const { status, body } = await client.request('/city.json?Term=ber');
        if (status === 200) console.log(body.items[0].population.toUpperCase());
        await client.request('/cities.json');
      }
    `,
    );
    const bad = run(dir, process.execPath, [TSC, '-p', '.']);
    expect(bad.status).not.toBe(0);
    expect(bad.out).toMatch(/bad\.ts\(7,66\): error TS2339: Property 'toUpperCase' does not exist on type 'number'/);
    expect(bad.out).toMatch(
      /bad\.ts\(8,30\): error TS2345: Argument of type '"\/cities\.json"' is not assignable to parameter of type '"\/cities\.json: no declared list has this path"'/,
    );
    expect(bad.out).not.toMatch(/good\.ts|reflist-lists|node_modules/);
  }, 60_000);
});
