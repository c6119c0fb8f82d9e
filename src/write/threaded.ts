// The writer on a second thread: the main thread renders and posts batches of
// files while worker.ts hashes and writes them, so both cores work.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ioError } from '../errors.js';
import { checkLib, packageFile } from '../root.js';
import { outputLength, type Output } from '../tree-files.js';
import { TreeWriter, writeOutputs, type WriteOptions, type WriteReport } from './write.js';
import { errorData, writerError, type FileBatch, type WorkerReply, type WorkerRequest } from './protocol.js';

/** lib/write-worker.js, made by `npm run compile`. */
const WORKER = fileURLToPath(packageFile('lib/write-worker.js'));

/**
 * Bytes a batch sent to the writer's thread holds: files are encoded here,
 * end to end in one buffer that is transferred, not copied, and written
 * from as it is (cloning strings cost more than encoding them).
 */
const BATCH = 1 << 20;
/**
 * Bytes posted but not yet written. Rendering comes in bursts (a list's
 * pages are quick, its search index is long in coming), so the writer needs a
 * backlog to work through meanwhile; 16 MB is about a third of a second of
 * writing, and holds memory to that.
 */
const IN_FLIGHT = 16 << 20;

/** An output folder opened for one build: locked and its indexes read, nothing written yet. */
export interface OpenTree {
  /** Writes the files, then swaps the new tree in. */
  write(outputs: Iterable<Output>, onFile?: (count: number) => void): Promise<WriteReport>;
  /** Writes nothing and lets go of the folder. */
  abort(): Promise<void>;
}

/**
 * Opens an output folder in a writer thread, so that the thread starts, takes
 * the lock and reads the indexes while this one reads the sources. Falls back
 * to this thread on a single core or when the worker bundle is missing, and
 * when REFLIST_WRITER=main (`npm run bench -- writer` measures the two).
 */
export function openTree(outDir: string, options: WriteOptions = {}): OpenTree {
  checkLib();
  if (process.env['REFLIST_WRITER'] === 'main' || availableParallelism() < 2 || !existsSync(WORKER))
    return openInThisThread(outDir, options);
  const thread = startWriter(outDir, options);
  const ready = thread.next(); // ready, or the lock or layout error
  ready.catch(() => {}); // reported by write; abort has nothing to undo
  // Once: a render that fails aborts in write, then the build aborts the tree, and a thread asked twice answers once.
  let aborting: Promise<void> | undefined;
  const abort = () =>
    (aborting ??= (async () => {
      // The thread's first reply is ready's, and it answers one waiter at a time: a render that fails
      // before the thread is ready must not take that reply from under `ready`, which would then never settle.
      await ready.catch(() => {});
      // The lock is released by the writer thread, so wait for it to let go.
      thread.send({ abort: true });
      while (!('aborted' in (await thread.next().catch(() => ({ aborted: true }))))) {}
    })());
  return {
    async write(outputs, onFile) {
      try {
        try {
          await postOutputs(thread, ready, outputs, onFile);
        } catch (err) {
          await abort();
          throw err;
        }
        thread.send({ finish: true });
        for (;;) {
          const reply = await thread.next();
          if ('report' in reply) return reply.report;
        }
      } finally {
        await thread.terminate();
      }
    },
    async abort() {
      await ready.then(abort, () => {});
      await thread.terminate();
    },
  };
}

/** The writer's thread on one output folder, and its replies in the order they came. */
interface WriterThread {
  send(message: WorkerRequest, transfer?: ArrayBuffer[]): void;
  /** The next reply, waited for; an error the thread reports, or its exit, is thrown. */
  next(): Promise<WorkerReply>;
  terminate(): Promise<number>;
}

function startWriter(outDir: string, options: WriteOptions): WriterThread {
  const worker = new Worker(WORKER, { workerData: { out: resolve(outDir), options } });
  const replies: WorkerReply[] = [];
  let wake: (() => void) | undefined;
  const arrive = (reply: WorkerReply) => {
    replies.push(reply);
    wake?.();
  };
  worker.on('message', arrive);
  worker.on('error', (err) => arrive({ error: errorData(err) }));
  // A thread that is gone answers nothing more: whoever waits for a reply gets this one.
  worker.on('exit', () => arrive({ error: { name: 'Error', message: 'it has stopped' } }));
  return {
    send: (message, transfer = []) => worker.postMessage(message, transfer),
    async next() {
      for (;;) {
        const reply = replies.shift();
        if (reply === undefined) await new Promise<void>((r) => (wake = r));
        else if ('error' in reply) throw writerError(reply.error);
        else return reply;
      }
    },
    terminate: () => worker.terminate(),
  };
}

/**
 * Sends the outputs to the thread as rendering yields them, and waits until
 * it has taken every one. Rendering starts at once: the thread may still be
 * starting, and takes the files when it is ready; its first reply (`ready`)
 * says so, or that it failed to lock the folder, and is awaited at each wait.
 * Files go encoded end to end in batches of BATCH bytes; no more than
 * IN_FLIGHT bytes are ever posted and not yet acknowledged.
 */
async function postOutputs(
  thread: WriterThread,
  ready: Promise<WorkerReply>,
  outputs: Iterable<Output>,
  onFile: ((count: number) => void) | undefined,
): Promise<void> {
  const encoder = new TextEncoder();
  let batch: FileBatch = { paths: [], ends: [], bytes: new Uint8Array(BATCH) };
  let used = 0;
  const inFlight: number[] = []; // each posted message's bytes, oldest first
  let pending = 0;
  /** Waits until no more than `limit` bytes are in flight. */
  const drain = async (limit: number) => {
    while (pending > limit) {
      await ready;
      if ('ack' in (await thread.next())) pending -= inFlight.shift()!;
    }
  };
  const post = async (message: WorkerRequest, bytes: number, transfer: ArrayBuffer[] = []) => {
    thread.send(message, transfer);
    inFlight.push(bytes);
    pending += bytes;
    await drain(IN_FLIGHT);
  };
  const flush = async () => {
    if (batch.paths.length === 0) return;
    const full = batch;
    full.bytes = full.bytes.subarray(0, used);
    batch = { paths: [], ends: [], bytes: new Uint8Array(BATCH) };
    used = 0;
    await post({ files: full }, full.bytes.length, [full.bytes.buffer as ArrayBuffer]);
  };
  let count = 0;
  for (const output of outputs) {
    onFile?.(++count);
    if (!Array.isArray(output)) {
      await flush();
      await post({ outputs: [output] }, outputLength(output));
      continue;
    }
    const [path, text] = output;
    // encodeInto needs up to 3 bytes a UTF-16 unit.
    if (used + text.length * 3 > batch.bytes.length) {
      await flush();
      if (text.length * 3 > batch.bytes.length) batch.bytes = new Uint8Array(text.length * 3);
    }
    used += encoder.encodeInto(text, batch.bytes.subarray(used)).written;
    batch.paths.push(path);
    batch.ends.push(used);
  }
  await flush();
  await ready;
  await drain(0);
}

function openInThisThread(outDir: string, options: WriteOptions): OpenTree {
  let writer: TreeWriter | undefined;
  let error: unknown;
  try {
    writer = new TreeWriter(outDir, options);
  } catch (err) {
    error = ioError(err);
  }
  return {
    async write(files, onFile) {
      if (!writer) throw error;
      try {
        return writeOutputs(writer, files, onFile);
      } catch (err) {
        throw ioError(err);
      }
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
