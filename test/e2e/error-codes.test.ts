// Each error code of a build, from the situation it names: a folder that is
// not a tree, a lock another build holds, init's files in the way, a folder
// this user may not write, and failures on the writer's thread, which reach
// the build with their code and the thread's own error as their cause.
import { describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build.js';
import { run } from '../../src/cli.js';
import { ReflistError } from '../../src/errors.js';
import { writeTreeThreaded } from '../../src/write/threaded.js';
import { TreeWriter } from '../../src/write/write.js';
import { VALID } from '../fixtures/valid.js';
import { snapshotTree, tempDir, writeSources } from '../helpers.js';

const CLI = fileURLToPath(new URL('../../lib/cli.js', import.meta.url));

/** The error a promise rejects with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('it succeeded'),
    (err: unknown) => err as ReflistError,
  );

describe('a build fails with the code of what is wrong', () => {
  test('a folder that is not a tree: NOT_A_TREE, and the folder is as it was', async () => {
    const site = writeSources(tempDir(), { 'index.html': '<p>mine</p>' });
    const err = await failure(build({ sources: writeSources(tempDir(), VALID), out: site }));
    expect(err).toBeInstanceOf(ReflistError);
    expect(err).toMatchObject({
      code: 'NOT_A_TREE',
      message: `${site} is not empty and holds no lookup.json: refusing to replace it`,
    });
    expect([...snapshotTree(site).keys()]).toEqual(['index.html']);
  });

  test('a folder another build is writing: LOCKED, and that build still finishes', async () => {
    const out = join(tempDir(), 'dist');
    const holder = new TreeWriter(out);
    const err = await failure(build({ sources: writeSources(tempDir(), VALID), out }));
    expect(err).toMatchObject({
      code: 'LOCKED',
      message: expect.stringMatching(/^another build is writing .*dist \(remove .*dist\.lock if it is not\)$/),
    });
    holder.add('lookup.json', '{}');
    expect(holder.finish()).toMatchObject({ written: 1 });
  });

  test('a folder this user may not write: IO with the errno and the path, exit 1, the served tree as it was', async () => {
    const project = tempDir();
    const sources = writeSources(join(project, 'sources'), VALID);
    const out = join(project, 'dist');
    expect(
      await run(['build', '--quiet', '--sources', sources, '--out', out], { stdout: () => {}, stderr: () => {} }),
    ).toBe(0);
    const before = snapshotTree(out);
    writeSources(sources, { 'author.csv': VALID['author.csv']!.replace('Smith, John', 'Smith, Jon') });
    // The state folder beside the output (the generations, the lock) made read-only; root writes anyway, so the build runs as nobody.
    const state = join(project, '.reflist');
    for (const dir of [dirname(project), project]) chmodSync(dir, 0o711);
    chmodSync(sources, 0o755);
    chmodSync(state, 0o555);
    // nobody runs this package's lib/cli.js: a folder above it that others may not pass (a clone in a
    // `mktemp -d` folder, mode 700) is opened to passing alone (o+x) for the run, then closed again.
    const above: string[] = [];
    for (let d = dirname(CLI); d !== dirname(d); d = dirname(d)) above.push(d);
    const shut = above.filter((d) => (statSync(d).mode & 0o001) === 0).map((d) => [d, statSync(d).mode] as const);
    for (const [d, mode] of shut) chmodSync(d, mode | 0o001);
    try {
      const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const result = spawnSync(process.execPath, [CLI, 'build', '--sources', sources, '--out', out], {
        encoding: 'utf8',
        cwd: project,
        ...asUser,
      });
      expect(result.stderr).toBe(
        `${join(state, 'dist.lock')}: open failed with EACCES, permission denied: let this user write there, or build into another --out\n`,
      );
      expect(result.status).toBe(1);
    } finally {
      chmodSync(state, 0o755);
      for (const [d, mode] of shut) chmodSync(d, mode);
    }
    expect(snapshotTree(out)).toEqual(before);
  });

  test('init into a folder that holds its files: IN_THE_WAY, exit 1, nothing overwritten', async () => {
    const dir = writeSources(tempDir(), { 'README.md': 'mine' });
    const stderr: string[] = [];
    const err = await failure(
      (async () => {
        const { init } = await import('../../src/commands/init.js');
        init(dir, { stdout: () => {} });
      })(),
    );
    expect(err).toMatchObject({
      code: 'IN_THE_WAY',
      message: expect.stringMatching(/^init: refusing to overwrite 1 existing file in .*: README\.md/),
    });
    expect(await run(['init', dir], { stdout: () => {}, stderr: (text) => void stderr.push(text) })).toBe(1);
    expect(stderr.join('')).toContain('refusing to overwrite 1 existing file');
    expect([...snapshotTree(dir).keys()]).toEqual(['README.md']);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('mine');
  });
});

describe("a failure on the writer's thread", () => {
  test("a path no tree may hold is INTERNAL, with the thread's error and stack as its cause", async () => {
    const err = await failure(writeTreeThreaded(join(tempDir(), 'dist'), [['../outside.json', '{}']]));
    expect(err).toBeInstanceOf(ReflistError);
    expect(err).toMatchObject({ code: 'INTERNAL', message: 'refusing to write unsafe path "../outside.json"' });
    const cause = err.cause as Error;
    expect(cause).toMatchObject({ name: 'ReflistError', message: err.message });
    expect(cause.stack).toMatch(/write-worker\.js/); // thrown there, not here
  });

  test("a file system failure is IO, with its errno and path, and the Node error under the thread's", async () => {
    const out = join(tempDir(), 'dist');
    // A file where a folder must go: mkdir fails, on the writer's thread.
    const err = await failure(
      writeTreeThreaded(out, [
        ['a.json', '1'],
        ['a.json/b.json', '2'],
      ]),
    );
    expect(err).toMatchObject({ code: 'IO', errno: 'EEXIST' });
    expect(err.file).toMatch(/dist\.a\/a\.json$/);
    expect(String(err)).toMatch(
      /\/a\.json: mkdir failed with EEXIST, a file system call failed: EEXIST: file already exists, mkdir '.*\/a\.json'$/,
    );
    const thread = err.cause as Error;
    expect(thread).toMatchObject({ name: 'ReflistError', message: err.message });
    expect(thread.cause).toMatchObject({ code: 'EEXIST', syscall: 'mkdir', path: err.file });
    expect((thread.cause as Error).stack).toMatch(/mkdir/);
  });
});
