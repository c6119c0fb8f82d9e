// The writer's thread: hashing and file system calls run here while the main
// thread renders, so a build uses both cores. Messages: {files} batches, each
// acknowledged; then {finish} or {abort}. Between messages, this thread links
// what it wrote into the mirror generation (TreeWriter.mirror), sharing the
// work with the main thread, which links while it waits.
import { parentPort, workerData } from 'node:worker_threads';
import { ReflistError } from './errors.js';
import { Mirror, TreeWriter, type WriteOptions } from './write.js';
import { outputLength, type Output } from './render.js';
import { COUNTERS } from './write-threaded.js';

/** Files as they cross threads: file i is bytes[ends[i - 1] .. ends[i]). */
export interface FileBatch {
  paths: string[];
  ends: number[];
  bytes: Uint8Array;
}

export type WorkerRequest = { files: FileBatch } | { outputs: Output[] } | { finish: true } | { abort: true };
export type WorkerReply =
  | { ready: true; mirror?: { from: string; to: string } }
  | { ack: number; mirrored?: string[] }
  | { report: TreeWriter['report'] }
  | { aborted: true }
  | { error: { message: string; code?: string } };

const port = parentPort!;
const reply = (message: WorkerReply) => port.postMessage(message);
const failure = (err: unknown): WorkerReply => ({
  error: { message: err instanceof Error ? err.message : String(err), code: err instanceof ReflistError ? err.code : undefined },
});

const { out, options, shared } = workerData as { out: string; options: WriteOptions; shared: SharedArrayBuffer };
const counters = new Int32Array(shared);

let writer: TreeWriter | undefined;
try {
  writer = new TreeWriter(out, { ...options, mirrorElsewhere: true });
  const { mirror } = writer;
  reply({ ready: true, ...(mirror ? { mirror: { from: mirror.from, to: mirror.to } } : {}) });
} catch (err) {
  reply(failure(err));
}
const mirror = writer?.mirror && new Mirror(writer.mirror.from, writer.mirror.to, counters.subarray(COUNTERS.taken, COUNTERS.taken + 1));
/** How many of writer.mirrored the main thread has been told of. */
let told = 0;

/** The files written since the last reply, for the main thread to link into the mirror while it waits. */
function takeMirrored(): { mirrored?: string[] } {
  const all = writer?.mirrored;
  if (!all || told === all.length) return {};
  const mirrored = all.slice(told);
  told = all.length;
  return { mirrored };
}

/** Links written files into the mirror until a message is waiting or none are left. */
function linkWhileIdle(): void {
  try {
    while (writer?.mirrored && Atomics.load(counters, COUNTERS.queued) === 0 && mirror!.linkNext(writer.mirrored)) {}
  } catch (err) {
    writer?.abort();
    writer = undefined;
    reply(failure(err));
  }
}

port.on('message', (message: WorkerRequest) => {
  if (!writer) {
    if ('abort' in message) reply({ aborted: true });
    return;
  }
  try {
    if ('files' in message) {
      const { paths, ends, bytes } = message.files;
      for (const [i, path] of paths.entries()) {
        const start = i === 0 ? 0 : ends[i - 1]!;
        writer.add(path, bytes.subarray(start, ends[i]));
        Atomics.add(counters, COUNTERS.written, ends[i]! - start);
      }
      reply({ ack: paths.length, ...takeMirrored() });
    } else if ('outputs' in message) {
      for (const output of message.outputs) {
        writer.take(output);
        Atomics.add(counters, COUNTERS.written, outputLength(output));
      }
      reply({ ack: message.outputs.length, ...takeMirrored() });
    } else if ('finish' in message) {
      // The main thread has linked all it took: what is left is this thread's.
      while (writer.mirrored && mirror!.linkNext(writer.mirrored)) {}
      reply({ report: writer.finish() });
    } else writer.abort(), reply({ aborted: true });
  } catch (err) {
    writer.abort();
    writer = undefined;
    reply(failure(err));
  }
  if (Atomics.sub(counters, COUNTERS.queued, 1) === 1 && writer?.mirrored) setImmediate(linkWhileIdle);
});
