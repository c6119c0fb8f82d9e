// The writer on a second thread: the main thread renders and posts batches of
// files while write-worker.ts hashes and writes them, so both cores work.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReflistError, type ErrorCode } from './errors.js';
import type { TreeFile } from './render.js';
import { writeTree, type WriteOptions, type WriteReport } from './write.js';
import type { WorkerReply, WorkerRequest } from './write-worker.js';

/** lib/write-worker.js, made by `npm run compile`, found from src/ (tests) and lib/ alike. */
const WORKER = fileURLToPath(new URL('../lib/write-worker.js', import.meta.url));

/** Files a batch sent to the writer's thread; a few batches in flight keep both threads busy. */
const BATCH = 512;
const IN_FLIGHT = 4;

/**
 * Writes a tree from a writer thread while this one renders, falling back to
 * this thread on a single core or when the worker bundle is missing.
 */
export async function writeTreeThreaded(
  outDir: string,
  files: Iterable<TreeFile>,
  onFile?: (count: number) => void,
  options: WriteOptions = {},
): Promise<WriteReport> {
  if (availableParallelism() < 2 || !existsSync(WORKER)) return writeTree(outDir, files, onFile, options);
  const worker = new Worker(WORKER, { workerData: { out: resolve(outDir), options } });
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
  try {
    await next(); // ready, or the lock or layout error
    let batch: TreeFile[] = [];
    let inFlight = 0;
    let count = 0;
    const send = async () => {
      worker.postMessage({ files: batch } satisfies WorkerRequest);
      batch = [];
      if (++inFlight >= IN_FLIGHT) await next(), inFlight--;
    };
    try {
      for (const file of files) {
        batch.push(file);
        onFile?.(++count);
        if (batch.length >= BATCH) await send();
      }
    } catch (err) {
      // The lock is released by the writer thread, so wait for it to let go.
      worker.postMessage({ abort: true } satisfies WorkerRequest);
      while (!('aborted' in (await next().catch(() => ({ aborted: true }))))) {}
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
}
