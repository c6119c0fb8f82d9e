// The writer on a second thread: the main thread renders and posts batches of
// files while write-worker.ts hashes and writes them, so both cores work.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReflistError, type ErrorCode } from './errors.js';
import { outputLength, type Output } from './render.js';
import { TreeWriter, writeOutputs, type WriteOptions, type WriteReport } from './write.js';
import type { WorkerReply, WorkerRequest } from './write-worker.js';

/** lib/write-worker.js, made by `npm run compile`, found from src/ (tests) and lib/ alike. */
const WORKER = fileURLToPath(new URL('../lib/write-worker.js', import.meta.url));

/** Files a batch sent to the writer's thread. */
const BATCH = 512;
/**
 * Text (in UTF-16 units) posted but not yet written. Rendering comes in
 * bursts (a list's pages are quick, its search index is long in coming), so
 * the writer needs a backlog to work through meanwhile; 16 M is about a
 * third of a second of writing.
 */
const IN_FLIGHT = 16 << 20;

/** An output folder opened for one build: locked and its indexes read, nothing written yet. */
export interface OpenTree {
  /** True while the writer has a full backlog, the time to compute ahead (RenderOptions.busy). */
  busy(): boolean;
  /** Writes the files, then swaps the new tree in. */
  write(outputs: Iterable<Output>, onFile?: (count: number) => void): Promise<WriteReport>;
  /** Writes nothing and lets go of the folder. */
  abort(): Promise<void>;
}

/**
 * Opens an output folder in a writer thread, so that the thread starts, takes
 * the lock and reads the indexes while this one reads the sources. Falls back
 * to this thread on a single core or when the worker bundle is missing.
 */
export function openTree(outDir: string, options: WriteOptions = {}): OpenTree {
  if (availableParallelism() < 2 || !existsSync(WORKER)) return openInThisThread(outDir, options);
  // The text posted and the text written (by the worker, in shared memory),
  // both modulo 2^32: their difference is the backlog.
  const written = new Int32Array(new SharedArrayBuffer(4));
  let posted = 0;
  const worker = new Worker(WORKER, { workerData: { out: resolve(outDir), options, written: written.buffer } });
  const replies: WorkerReply[] = [];
  let wake: (() => void) | undefined;
  worker.on('message', (reply: WorkerReply) => (replies.push(reply), wake?.()));
  worker.on('error', (err) => (replies.push({ error: { message: err.message } }), wake?.()));
  const next = async (): Promise<WorkerReply> => {
    while (replies.length === 0) await new Promise<void>((r) => (wake = r));
    const reply = replies.shift()!;
    if ('error' in reply) {
      throw new ReflistError((reply.error.code as ErrorCode | undefined) ?? 'UNSAFE_OUTPUT', reply.error.message);
    }
    return reply;
  };
  const ready = next(); // ready, or the lock or layout error
  ready.catch(() => {}); // reported by write; abort has nothing to undo
  const abort = async () => {
    // The lock is released by the writer thread, so wait for it to let go.
    worker.postMessage({ abort: true } satisfies WorkerRequest);
    while (!('aborted' in (await next().catch(() => ({ aborted: true }))))) {}
  };
  return {
    // Half the limit, so the renderer turns to other work before it has to wait.
    busy: () => ((posted - Atomics.load(written, 0)) | 0) >= IN_FLIGHT / 2,
    async write(files, onFile) {
      try {
        await ready;
        let batch: Output[] = [];
        let chars = 0;
        const inFlight: number[] = []; // each posted batch's text, oldest first
        let pending = 0;
        const send = async () => {
          worker.postMessage({ outputs: batch } satisfies WorkerRequest);
          inFlight.push(chars);
          pending += chars;
          posted = (posted + chars) | 0;
          [batch, chars] = [[], 0];
          while (pending > IN_FLIGHT) await next(), (pending -= inFlight.shift()!);
        };
        let count = 0;
        try {
          for (const output of files) {
            batch.push(output);
            chars += outputLength(output);
            onFile?.(++count);
            if (batch.length >= BATCH) await send();
          }
        } catch (err) {
          await abort();
          throw err;
        }
        if (batch.length > 0) await send();
        worker.postMessage({ finish: true } satisfies WorkerRequest);
        for (;;) {
          const reply = await next();
          if ('report' in reply) return reply.report;
        }
      } finally {
        await worker.terminate();
      }
    },
    async abort() {
      await ready.then(abort, () => {});
      await worker.terminate();
    },
  };
}

function openInThisThread(outDir: string, options: WriteOptions): OpenTree {
  let writer: TreeWriter | undefined;
  let error: unknown;
  try {
    writer = new TreeWriter(outDir, options);
  } catch (err) {
    error = err;
  }
  return {
    busy: () => false,
    async write(files, onFile) {
      if (!writer) throw error;
      return writeOutputs(writer, files, onFile);
    },
    async abort() {
      writer?.abort();
    },
  };
}

/** Writes a tree from a writer thread while this one renders. */
export function writeTreeThreaded(
  outDir: string,
  files: Iterable<Output>,
  onFile?: (count: number) => void,
  options: WriteOptions = {},
): Promise<WriteReport> {
  return openTree(outDir, options).write(files, onFile);
}
