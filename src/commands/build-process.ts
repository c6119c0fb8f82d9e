// `reflist build` in a process of its own, whose heap is the build's memory
// budget (--memory): build-worker.ts runs the build there, and what it prints,
// its progress and its end come back as messages (build-protocol.ts), printed
// here as a build in this process prints them. A process, not a thread: V8
// stops a thread that outgrows its heap only when the thread reaches a point
// where it can stop, and one that allocates on past it aborts the whole
// process (a 5,000,000-row build did, at 4,096 MB); a process that outgrows
// its heap always dies the one way, which this one reads. The build then fails
// with one sentence that names the budget and the knob, the lock the dead
// build held is let go, and the served tree stays.
import { fork } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { build, type BuildReport } from '../build.js';
import { ReflistError } from '../errors.js';
import type { Progress } from '../progress.js';
import { checkLib, packageFile } from '../root.js';
import { releaseLock } from '../write/generations.js';
import { failureError, type BuildReply, type Failure, type ProcessOptions } from './build-protocol.js';
import { peakMemory } from './report.js';

/** lib/build-worker.js, made by `npm run compile`. */
const WORKER = fileURLToPath(packageFile('lib/build-worker.js'));

/**
 * `--memory`, in MB: the most the build process's heap (V8's old
 * generation) may hold. The default is the heap Node gives a process of its
 * own on a machine of 16 GB or more, which builds what a build in the CLI's
 * own process built before.
 */
export const MEMORY = { default: 4096, minimum: 256, maximum: 1_048_576 } as const;

export interface ProcessHooks {
  log: (line: string) => void;
  warn: (line: string) => void;
  progress: Progress;
}

/**
 * A build whose sources take at most this share of its budget runs in the
 * CLI's own process: a second Node's start costs some 0.2 s, a fifth of an
 * edit rebuild of 100,000 authors, and such a build stays well inside its
 * budget, as the most a build was measured to hold is some 53 times its
 * sources' bytes (docs/performance.md, The memory budget).
 */
const INLINE_SHARE = 128;

/** The bytes of the files in the folder a build reads its sources from. */
function sourceBytes(options: ProcessOptions): number {
  const dir = options.config ? dirname(options.config) : options.sources;
  let bytes = 0;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isFile()) bytes += statSync(join(dir, entry.name)).size;
  } catch {
    // No such folder: the build says so, wherever it runs.
  }
  return bytes;
}

/** Whether a build of a budget of `memory` MB runs in this process: its sources are small next to it, and this process's heap holds it. */
export function runsInline(options: ProcessOptions, memory: number): boolean {
  const heap = getHeapStatistics().heap_size_limit / 2 ** 20;
  return memory <= heap && sourceBytes(options) * INLINE_SHARE <= memory * 2 ** 20;
}

/** A build's report, and the peak memory of the process that built it, in bytes. */
export interface Built {
  report: BuildReport;
  peak: number;
}

/** Builds within a budget of `memory` MB: in this process (runsInline), else in a process of its own (buildInProcess). */
export async function buildWithin(options: ProcessOptions, memory: number, hooks: ProcessHooks): Promise<Built> {
  if (!runsInline(options, memory)) return buildInProcess(options, memory, hooks);
  return { report: await build({ ...options, ...hooks }), peak: peakMemory() };
}

/** What V8 prints as it aborts a process out of its heap. */
const OUT_OF_HEAP = /JavaScript heap out of memory|Reached heap limit/;

/**
 * Builds in a process whose heap holds `memory` MB at most, and returns its
 * report and that process's peak memory, or throws its errors as the build
 * threw them; a process out of its memory throws OUT_OF_MEMORY.
 */
export function buildInProcess(options: ProcessOptions, memory: number, hooks: ProcessHooks): Promise<Built> {
  checkLib();
  if (!existsSync(WORKER)) throw new ReflistError('INVALID_OPTION', `${WORKER} is missing: run npm run compile`);
  const child = fork(WORKER, [], {
    // bin.ts's heap growth, which a process takes from its own flags.
    execArgv: [`--max-old-space-size=${memory}`, '--heap-growing-percent=100'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  // What the process prints itself: nothing but what V8 or Node say as it dies.
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-64 * 1024);
  });
  let phase: string | undefined;
  let end: Built | { failure: Failure } | undefined;
  let died: unknown;
  child.on('message', (reply: BuildReply) => {
    try {
      if ('log' in reply) hooks.log(reply.log);
      else if ('warn' in reply) hooks.warn(reply.warn);
      else if ('phase' in reply) hooks.progress.phase((phase = reply.phase));
      else if ('tick' in reply) hooks.progress.tick(reply.tick);
      else if ('end' in reply) hooks.progress.end();
      else end = reply;
    } catch (err) {
      died ??= err; // printing failed: the build stops as it would have in this process
      child.kill();
    }
  });
  child.on('error', (err) => (died ??= err));
  child.send(options);
  return new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      if (!died && end) return 'report' in end ? resolve(end) : reject(failureError(end.failure));
      // Gone before its end, and the writer's thread with it: the served tree is as it was, the lock is let go.
      if (child.pid !== undefined) releaseLock(options.out, child.pid);
      hooks.progress.end();
      if (!died && OUT_OF_HEAP.test(stderr)) return reject(outOfMemory(memory, phase));
      const said = stderr.trim().split('\n').at(-1);
      reject(
        died ??
          new ReflistError(
            'INTERNAL',
            `the build's process stopped (${signal ?? `exit code ${code}`}) before its end${said ? `: ${said}` : ''}`,
          ),
      );
    });
  });
}

/** The one sentence of a build out of its memory: the budget, where it was, the knob and what the machine has. */
export function outOfMemory(memory: number, phase: string | undefined, machine = machineMemory()): ReflistError {
  const more = Math.min(memory * 2, MEMORY.maximum);
  return new ReflistError(
    'OUT_OF_MEMORY',
    `the build ran out of its ${memory.toLocaleString('en-US')} MB of memory${phase ? ` while ${phase}` : ''}; ` +
      `give it more with --memory ${more} (this machine has ${gigabytes(machine)})`,
  );
}

/** The memory this process may have: the machine's, or less where a container caps it (0, or 2^64 for no cap). */
function machineMemory(): number {
  const capped = process.constrainedMemory();
  return capped > 0 ? Math.min(totalmem(), capped) : totalmem();
}

function gigabytes(bytes: number): string {
  const gb = bytes / 2 ** 30;
  return `${gb >= 10 ? Math.round(gb) : gb.toFixed(1)} GB`;
}
