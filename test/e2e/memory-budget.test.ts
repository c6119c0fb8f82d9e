// `reflist build` runs the build in a process whose heap is its memory budget
// (--memory, src/commands/build-process.ts), unless its sources are small next
// to the budget: then in the CLI's own process. A build that outgrows it fails
// with one sentence naming the budget and the knob, leaves the served tree as
// it was and the next build free to run; a build that fits prints what a
// build in the CLI's own process printed: notices, warnings, progress, the
// report, errors and hints.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build.js';
import { run } from '../../src/cli.js';
import { failureData, failureError } from '../../src/commands/build-protocol.js';
import { outOfMemory, runsInline } from '../../src/commands/build-process.js';
import { buildReport } from '../../src/commands/report.js';
import { errorLines, ioError, ReflistError, ReflistErrors } from '../../src/errors.js';
import { releaseLock } from '../../src/write/generations.js';
import { TreeWriter } from '../../src/write/write.js';
import { VALID } from '../fixtures/valid.js';
import { snapshotTree, tempDir, writeSources } from '../helpers.js';

const CLI = fileURLToPath(new URL('../../lib/cli.js', import.meta.url));

/** `node lib/cli.js …` in a process of its own, as a person runs it. */
function cliProcess(args: string[], cwd: string) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
}

/** `run` in this process (the build still runs in its own process), its output collected. */
async function cli(args: string[], progress?: { write: (text: string) => void; isTTY: boolean }) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), progress });
  return { code, stdout, stderr };
}

/**
 * A list of `rows` items whose texts are `words` words each, drawn from
 * 50,000 made-up ones, searched by the phrase rule unless told: it indexes
 * every word start, so its Term index holds rows × words distinct keys, each
 * a text's end. Under a heap of 256 MB, 10,000 × 200 runs out while indexing
 * (node 20, 2 cores), in some 10 to 20 s; by the words rule, whose keys are
 * the words, 40,000 × 200 build in it.
 */
function wordyList(rows: number, words: number, match: 'phrase' | 'words' = 'phrase'): Record<string, string> {
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocabulary = Array.from({ length: 50_000 }, () =>
    Array.from({ length: 4 + Math.floor(random() * 8) }, () => letters[Math.floor(random() * 26)]).join(''),
  );
  const lines = ['id,text'];
  for (let id = 1; id <= rows; id++)
    lines.push(
      `${id},${Array.from({ length: words }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ')}`,
    );
  // The phrase rule declared: a declared list's default is the words rule, whose keys are the words alone.
  const config = `{ "lists": { "item": { "search": { "match": "${match}" } } } }\n`;
  return { 'item.csv': `${lines.join('\n')}\n`, 'reflist.config.json': config };
}

/**
 * Sources that a build under a budget of 256 MB reads in a process of its
 * own: beside them, a file that takes them past the 128th of the budget a
 * build in the CLI's own process may have, which no build reads.
 */
function inOwnProcess(files: Record<string, string>): string {
  const dir = writeSources(tempDir(), { ...files, 'notes.txt': 'x'.repeat(2 * 2 ** 20) });
  expect(runsInline({ sources: dir, out: 'dist' }, 256)).toBe(false);
  return dir;
}

/** A line of the progress a build prints on a stderr that is not a terminal. */
const PROGRESS = /^(reading sources|checking sources|indexing and writing files)(: [\d,]+ files?)? \(\d+\.\d s\)$/;

/** What a report says that no two builds share: its time and its peak memory. */
const untimed = (text: string) =>
  text.replace(/ in \d+\.\d\d s \(peak memory [\d.]+ MB\)/g, ' in T s (peak memory M MB)');

describe('a build over its memory budget', () => {
  test('stops with one sentence naming its budget and --memory, the served tree byte for byte as it was, and the next build runs', async () => {
    const project = tempDir();
    const out = join(project, 'dist');
    const state = join(project, '.reflist');
    const small = writeSources(join(project, 'small'), VALID);
    expect((await cliProcess(['build', '--quiet', '--sources', small, '--out', out], project)).code).toBe(0);
    const served = snapshotTree(out);
    const link = readlinkSync(out);

    const big = writeSources(join(project, 'big'), wordyList(10_000, 200));
    const failed = await cliProcess(['build', '--memory', '256', '--sources', big, '--out', out], project);
    expect(failed).toMatchObject({ code: 1, signal: null, stdout: '' });
    expect(failed.stderr.split('\n').filter((line) => line !== '' && !PROGRESS.test(line))).toEqual([
      expect.stringMatching(
        /^the build ran out of its 256 MB of memory while indexing and writing files; give it more with --memory 512 \(this machine has \d+(\.\d)? GB\)$/,
      ),
    ]);
    expect(failed.stderr).not.toMatch(/FATAL ERROR|heap out of memory|^\s+at /m);
    expect(readlinkSync(out)).toBe(link);
    expect(snapshotTree(out)).toEqual(served);
    // It died writing its spare generation: files in it, no index (so no build takes it for whole), no lock
    // held; and the cache lines it had begun (a list of the phrase rule keeps them), which the next build clears.
    expect(readdirSync(state).sort()).toEqual([
      'dist.a',
      'dist.a.cache',
      'dist.a.index',
      'dist.b',
      'dist.b.cache.next',
    ]);
    expect(readdirSync(join(state, 'dist.b')).length).toBeGreaterThan(0);

    // The next build takes the half-written spare and makes of it what a build into an empty folder makes.
    writeSources(small, { 'author.csv': VALID['author.csv']!.replace('Smith, John', 'Smith, Jon') });
    const next = await cliProcess(['build', '--quiet', '--sources', small, '--out', out], project);
    expect(next).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readlinkSync(out)).not.toBe(link);
    const fresh = join(tempDir(), 'dist');
    await build({ sources: small, out: fresh });
    expect(snapshotTree(out)).toEqual(snapshotTree(fresh));
    expect(readdirSync(state).sort()).toEqual([
      'dist.a',
      'dist.a.cache',
      'dist.a.index',
      'dist.b',
      'dist.b.cache',
      'dist.b.index',
    ]);
  });

  test('is said in one sentence, with the phase when there is one, and twice the budget as the figure to try', () => {
    const gb = 24 * 2 ** 30;
    expect(String(outOfMemory(4096, 'checking sources', gb))).toBe(
      'the build ran out of its 4,096 MB of memory while checking sources; give it more with --memory 8192 (this machine has 24 GB)',
    );
    expect(String(outOfMemory(300, undefined, 7.5 * 2 ** 30))).toBe(
      'the build ran out of its 300 MB of memory; give it more with --memory 600 (this machine has 7.5 GB)',
    );
    expect(outOfMemory(1_048_576, 'reading sources', gb).message).toContain('--memory 1048576 ');
    expect(outOfMemory(256, undefined, gb)).toMatchObject({ code: 'OUT_OF_MEMORY', file: undefined });
  });

  test("lets go of a lock only this process's build took, never another's", () => {
    const out = join(tempDir(), 'dist');
    const writer = new TreeWriter(out);
    const lock = join(out, '..', '.reflist', 'dist.lock');
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    expect(releaseLock(out)).toBe(true);
    expect(existsSync(lock)).toBe(false);
    writer.abort();

    writeFileSync(lock, `${process.pid + 1}\n`); // another process's
    expect(releaseLock(out)).toBe(false);
    writeFileSync(lock, ''); // one written before locks held their process
    expect(releaseLock(out)).toBe(false);
    expect(existsSync(lock)).toBe(true);
    expect(releaseLock(join(tempDir(), 'never-built'))).toBe(false);
  });
});

describe('--memory', () => {
  test('is in reflist build --help, with its default', async () => {
    const { code, stdout } = await cli(['build', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--memory <MB> +the build's memory budget/);
    expect(stdout.replace(/\s+/g, ' ')).toContain('(default: 4096)');
  });

  test.each([['abc'], ['1.5'], ['255'], ['1048577'], ['']])(
    'refuses %j with what it expected, and builds nothing',
    async (value) => {
      const out = join(tempDir(), 'dist');
      const sources = writeSources(tempDir(), VALID);
      const { code, stderr } = await cli(['build', '--memory', value, '--sources', sources, '--out', out]);
      expect(code).toBe(2);
      expect(stderr).toContain(`--memory: expected an integer from 256 to 1048576, got "${value}"`);
      expect(existsSync(out)).toBe(false);
    },
  );

  test('takes any budget in its range, the smallest one among them', async () => {
    const out = join(tempDir(), 'dist');
    const sources = writeSources(tempDir(), VALID);
    expect(await cli(['build', '--quiet', '--memory', '256', '--sources', sources, '--out', out])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });
});

describe('where a build runs', () => {
  test("in the CLI's own process when its sources take at most a 128th of its budget, and this process's heap holds the budget", () => {
    const sources = writeSources(tempDir(), VALID);
    const options = { sources, out: 'dist' };
    expect(runsInline(options, 4096)).toBe(true);
    // 2 MiB a 128th of 256 MB: the sources and a file beside them, read or not, past it.
    const bytes = readdirSync(sources).reduce((n, f) => n + readFileSync(join(sources, f)).length, 0);
    writeFileSync(join(sources, 'notes.txt'), 'x'.repeat(2 * 2 ** 20 - bytes));
    expect(runsInline(options, 256)).toBe(true);
    writeFileSync(join(sources, 'notes.txt'), 'x'.repeat(2 * 2 ** 20 - bytes + 1));
    expect(runsInline(options, 256)).toBe(false);
    expect(runsInline(options, 257)).toBe(true);
    // With --config, the folder of the config is the sources'.
    expect(runsInline({ sources: tempDir(), config: join(sources, 'reflist.config.json'), out: 'dist' }, 256)).toBe(
      false,
    );
    // Over this process's heap, never here, whatever the sources.
    expect(runsInline({ sources: tempDir(), out: 'dist' }, 1_048_576)).toBe(false);
  });
});

describe('a build in its own process prints what a build in the CLI process printed', () => {
  const BUDGET = ['--memory', '256'];

  test('the notices, the warnings and the report', async () => {
    const sources = inOwnProcess(VALID);
    const declared = inOwnProcess({
      'reflist.config.json': '{ "lists": { "item": {} } }\n',
      'item.csv': 'id,text\n1,One\n2,Two\n',
      'notes.csv': 'a,b\n1,2\n',
    });
    for (const dir of [sources, declared]) {
      const out = join(tempDir(), 'dist');
      const printed = await cli(['build', ...BUDGET, '--sources', dir, '--out', out, '--page-size', '2']);
      let stdout = '';
      let stderr = '';
      const report = await build({
        sources: dir,
        out: join(tempDir(), 'dist'),
        pageSize: 2,
        log: (line) => (stdout += `${line}\n`),
        warn: (line) => (stderr += `warning: ${line}\n`),
      });
      for (const line of buildReport(report, out)) stdout += `${line}\n`;
      expect(printed.code).toBe(0);
      expect(untimed(printed.stdout)).toBe(untimed(stdout));
      expect(printed.stderr).toBe(stderr);
    }
    // Each run said something of its own: the preset's notice, the undeclared CSV's warning.
    expect((await cli(['build', ...BUDGET, '--sources', sources, '--out', join(tempDir(), 'dist')])).stdout).toContain(
      'built as the lookup-service preset',
    );
    expect((await cli(['build', ...BUDGET, '--sources', declared, '--out', join(tempDir(), 'dist')])).stderr).toMatch(
      /^warning: .*notes\.csv: no list declares it/,
    );
  });

  test("its report's peak memory is the build process's, not the CLI's", async () => {
    const project = tempDir();
    const sources = writeSources(join(project, 'wordy'), wordyList(3_000, 200, 'words'));
    expect(runsInline({ sources, out: 'dist' }, 512)).toBe(false);
    const built = await cliProcess(['build', '--memory', '512', '--sources', sources, '--out', 'dist'], project);
    expect(built.code).toBe(0);
    // The CLI, which only prints, holds some 60 MB; the build of these 600,000 words some 400 MB.
    const peak = Number(/\(peak memory ([\d.]+) MB\)/.exec(built.stdout)?.[1]);
    expect(peak).toBeGreaterThan(200);
  });

  test('every error as file:line: message, the hint once, the count, exit 1; and an error of one', async () => {
    const sources = inOwnProcess({
      'reflist.config.json': '{ "lists": { "item": {} } }\n',
      'item.csv': 'id,text\nAB,One\nCD,Two\nEF,\n',
    });
    const expected = await build({ sources, out: join(tempDir(), 'dist') }).then(
      () => expect.unreachable('it built'),
      (err: ReflistErrors) => err,
    );
    expect(expected).toBeInstanceOf(ReflistErrors);
    expect(expected.errors.some((e) => e.hint !== undefined)).toBe(true);
    const { code, stdout, stderr } = await cli([
      'build',
      ...BUDGET,
      '--sources',
      sources,
      '--out',
      join(tempDir(), 'dist'),
    ]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    const lines = [...errorLines(expected), `build failed with ${expected.errors.length} errors; nothing was written`];
    expect(stderr).toBe(lines.map((line) => `${line}\n`).join(''));

    const none = await cli([
      'build',
      ...BUDGET,
      '--sources',
      join(tempDir(), 'nowhere'),
      '--out',
      join(tempDir(), 'dist'),
    ]);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toMatch(/^--sources: no such folder .*nowhere\n$/);
  });

  test('its progress: each phase in order, then the line cleared', async () => {
    let text = '';
    const sources = inOwnProcess(VALID);
    const { code } = await cli(
      ['build', ...BUDGET, '--quiet', '--sources', sources, '--out', join(tempDir(), 'dist')],
      {
        write: (t) => (text += t),
        isTTY: true,
      },
    );
    expect(code).toBe(0);
    expect(text).toBe('');
    const { code: shown } = await cli(['build', ...BUDGET, '--sources', sources, '--out', join(tempDir(), 'dist')], {
      write: (t) => (text += t),
      isTTY: true,
    });
    expect(shown).toBe(0);
    const phases = text.split('\r\x1b[2K').flatMap((drawn) => /^([a-z ]+?)(?::| \()/.exec(drawn)?.[1] ?? []);
    expect([...new Set(phases)]).toEqual(['reading sources', 'checking sources', 'indexing and writing files']);
    expect(text.endsWith('\r\x1b[2K')).toBe(true);
  });
});

describe('an error crosses from the build process as it was thrown', () => {
  /** Through the process boundary: to data, cloned as the advanced IPC serialization clones it (structured clone), and back. */
  const across = (err: unknown) => failureError(structuredClone(failureData(err)));

  test('ReflistErrors: each error with its code, location and hint, printed the same', () => {
    const thrown = new ReflistErrors([
      new ReflistError('INVALID_VALUE', 'id: expected a non-negative integer, got "AB"', { file: 'a.csv', line: 2 }),
      new ReflistError('DUPLICATE_KEY', 'duplicate id 1 (first on line 2)', { file: 'a.csv', line: 3 }, 'a hint'),
    ]);
    const back = across(thrown) as ReflistErrors;
    expect(back).toBeInstanceOf(ReflistErrors);
    expect(back.errors.every((e) => e instanceof ReflistError)).toBe(true);
    expect(back.errors).toEqual(thrown.errors);
    expect(back.errors.map((e) => [e.code, e.file, e.line, e.hint])).toEqual(
      thrown.errors.map((e) => [e.code, e.file, e.line, e.hint]),
    );
    expect(errorLines(back)).toEqual(errorLines(thrown));
    expect(back.message).toBe(thrown.message);
  });

  test("a ReflistError with its errno and its cause, the file system's error", () => {
    const thrown = ioError(
      Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        syscall: 'write',
        path: '/out/a.json',
      }),
    ) as ReflistError;
    const back = across(thrown) as ReflistError;
    expect(back).toBeInstanceOf(ReflistError);
    expect(back).toMatchObject({ code: 'IO', errno: 'ENOSPC', file: '/out/a.json', message: thrown.message });
    expect(back.cause).toMatchObject({ message: 'ENOSPC: no space left on device, write', code: 'ENOSPC' });
    expect(errorLines(back)).toEqual(errorLines(thrown));
  });

  test('anything else, a fault of reflist, with its name, message and stack, for the CLI to throw', () => {
    const thrown = new TypeError("Cannot read properties of undefined (reading 'x')");
    const back = across(thrown);
    expect(back).toBeInstanceOf(TypeError);
    expect(back).toMatchObject({ name: 'TypeError', message: thrown.message });
    expect(back.stack).toBe(thrown.stack);
    expect(back.stack).toContain('memory-budget.test.ts');
  });
});
