// --compress's copies: a `.gz` and a `.br` of every JSON, JS and HTML file
// of 256 bytes or more. Compressing and writing them is most of what
// --compress costs, so a thread of its own does it (copy-worker.ts) while the
// writer goes on with the tree's files; the writer waits for it only when it
// finishes, or when it has more than COPY_BACKLOG bytes to catch up on. Falls
// back to the writer's thread on a single core or without the bundle.
import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { packageFile } from '../root.js';

/**
 * The files --compress writes copies of: JSON, JS and HTML, from 256 bytes
 * (below that a copy saves less than a packet). A file the tree stores
 * compressed already (`.json.gz`) takes none.
 */
export const takesCopies = (path: string, bytes: number): boolean => /\.(json|js|html)$/.test(path) && bytes >= 256;

/**
 * The copies, each named in the index by its source's hash and its settings
 * (`{hash}.gz6`), so a copy is compressed again only when its source or its
 * settings change. Brotli's quality 6 and gzip's level 6 cost a fraction of
 * 9 for a few tenths of a point of ratio (docs/performance.md).
 */
export const COPIES = [
  { suffix: '.gz', tag: 'gz6', compress: (data: Uint8Array) => gzipSync(data, { level: 6 }) },
  {
    suffix: '.br',
    tag: 'br6',
    compress: (data: Uint8Array) =>
      brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      }),
  },
] as const;

export type CopyTag = (typeof COPIES)[number]['tag'];

/**
 * The copies of one file to make: its path in the spare (each copy goes
 * beside it, under its suffix, its old file there already removed), the
 * copies by tag, and its bytes, in a buffer of their own (one that crosses
 * threads whole).
 */
export interface CopyJob {
  file: string;
  tags: CopyTag[];
  data: Uint8Array;
}

/** Compresses and writes a file's copies; their bytes, by tag. */
export function makeCopies(job: CopyJob): number[] {
  return job.tags.map((tag) => {
    const { suffix, compress } = COPIES.find((c) => c.tag === tag)!;
    const copy = compress(job.data);
    writeFileSync(`${job.file}${suffix}`, copy);
    return copy.length;
  });
}

/** Copies made elsewhere, collected by `settle`: each copy's bytes, in the order taken. */
export interface CopyMaker {
  take(job: CopyJob): void;
  /** Waits for every copy taken so far; their bytes, in the order taken. */
  settle(): number[];
  close(): void;
}

/** lib/copy-worker.js, made by `npm run compile`. */
const WORKER = fileURLToPath(packageFile('lib/copy-worker.js'));
/** Bytes of sources posted for copies a batch. */
const BATCH = 1 << 20;
/** Bytes of sources the copies' thread may lag behind by before the writer waits: holds memory to that. */
const COPY_BACKLOG = 32 << 20;

/** Makes copies in a thread of its own, or in this one on a single core. */
export function copyMaker(): CopyMaker {
  return availableParallelism() < 2 || !existsSync(WORKER) ? inThisThread() : inAThread();
}

function inThisThread(): CopyMaker {
  let made: number[] = [];
  return {
    take: (job) => void made.push(...makeCopies(job)),
    settle: () => {
      const done = made;
      made = [];
      return done;
    },
    close: () => {},
  };
}

/** Replies of the copies' thread: a batch's bytes, or why it failed. */
export type CopyReply = { bytes: number[] } | { error: string };

function inAThread(): CopyMaker {
  const { port1, port2 } = new MessageChannel();
  const replied = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, { workerData: { port: port2, replied: replied.buffer }, transferList: [port2] });
  worker.unref();
  let batch: CopyJob[] = [];
  let batchBytes = 0;
  const posted: number[] = []; // each batch's bytes, oldest first
  let lagging = 0;
  let made: number[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    port1.postMessage(
      batch,
      batch.map((job) => job.data.buffer as ArrayBuffer),
    );
    posted.push(batchBytes);
    lagging += batchBytes;
    batch = [];
    batchBytes = 0;
  };
  /** Takes the replies until no more than `limit` bytes are lagging. */
  const wait = (limit: number) => {
    while (lagging > limit) {
      const seen = Atomics.load(replied, 0);
      const reply = receiveMessageOnPort(port1 as MessagePort)?.message as CopyReply | undefined;
      if (!reply) {
        Atomics.wait(replied, 0, seen, 1000);
        continue;
      }
      if ('error' in reply) throw new Error(`the copies' thread failed: ${reply.error}`);
      made = made.concat(reply.bytes);
      lagging -= posted.shift()!;
    }
  };
  return {
    take(job) {
      batch.push(job);
      batchBytes += job.data.length;
      if (batchBytes >= BATCH) {
        flush();
        wait(COPY_BACKLOG);
      }
    },
    settle() {
      flush();
      wait(0);
      const done = made;
      made = [];
      return done;
    },
    close: () => void worker.terminate(),
  };
}
