// `reflist build` on a thread of its own, whose heap is the build's memory
// budget (--memory): build-worker.ts runs the build there, and what it prints,
// its progress and its end come back as messages (build-protocol.ts), printed
// here as a build in this thread prints them. A thread that runs out of its
// heap is stopped by Node, not the process, and the writer's thread under it
// with it: the build fails with one sentence that names the budget and the
// knob, the lock the writer held is let go, and the served tree stays.
import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BuildReport } from '../build.js';
import { ReflistError } from '../errors.js';
import type { Progress } from '../progress.js';
import { checkLib, packageFile } from '../root.js';
import { releaseLock } from '../write/generations.js';
import { failureError, type BuildReply, type Failure, type ThreadOptions } from './build-protocol.js';

/** lib/build-worker.js, made by `npm run compile`. */
const WORKER = fileURLToPath(packageFile('lib/build-worker.js'));

/**
 * `--memory`, in MB: the most the build thread's heap (V8's old generation)
 * may hold. The default is the heap Node gives a process of its own on a
 * machine of 16 GB or more, which builds what a build in the CLI's own
 * thread built before.
 */
export const MEMORY = { default: 4096, minimum: 256, maximum: 1_048_576 } as const;

export interface ThreadHooks {
  log: (line: string) => void;
  warn: (line: string) => void;
  progress: Progress;
}

/**
 * Builds in a thread whose heap holds `memory` MB at most, and returns its
 * report, or throws its errors as the build threw them; a thread out of its
 * memory throws OUT_OF_MEMORY.
 */
export function buildInThread(options: ThreadOptions, memory: number, hooks: ThreadHooks): Promise<BuildReport> {
  checkLib();
  if (!existsSync(WORKER)) throw new ReflistError('INVALID_OPTION', `${WORKER} is missing: run npm run compile`);
  const worker = new Worker(WORKER, { workerData: options, resourceLimits: { maxOldGenerationSizeMb: memory } });
  let phase: string | undefined;
  let end: { report: BuildReport } | { failure: Failure } | undefined;
  let died: unknown;
  const stop = (err: unknown) => {
    died ??= err;
    void worker.terminate();
  };
  worker.on('message', (reply: BuildReply) => {
    try {
      if ('log' in reply) hooks.log(reply.log);
      else if ('warn' in reply) hooks.warn(reply.warn);
      else if ('phase' in reply) hooks.progress.phase((phase = reply.phase));
      else if ('tick' in reply) hooks.progress.tick(reply.tick);
      else if ('end' in reply) hooks.progress.end();
      else {
        end = reply;
        void worker.terminate();
      }
    } catch (err) {
      stop(err); // printing failed: the build stops as it would have in this thread
    }
  });
  worker.on('error', (err) => (died ??= err));
  return new Promise((resolve, reject) => {
    worker.on('exit', (code) => {
      if (end && 'report' in end) return resolve(end.report);
      if (end) return reject(failureError(end.failure));
      // Gone before its end, and the writer's thread with it: the served tree is as it was, the lock is let go.
      releaseLock(options.out);
      hooks.progress.end();
      if ((died as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY')
        return reject(outOfMemory(memory, phase));
      reject(died ?? new ReflistError('INTERNAL', `the build's thread stopped with exit code ${code} before its end`));
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
