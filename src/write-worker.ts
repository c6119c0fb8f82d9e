// The writer's thread: hashing and file system calls run here while the main
// thread renders, so a build uses both cores. Messages: {files} batches, each
// acknowledged; then {finish} or {abort}.
import { parentPort, workerData } from 'node:worker_threads';
import { ReflistError } from './errors.js';
import { TreeWriter, type WriteOptions } from './write.js';
import { outputLength, type Output } from './render.js';

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

const { out, options, written } = workerData as { out: string; options: WriteOptions; written: SharedArrayBuffer };
/** Bytes written so far (modulo 2^32), read by the main thread without a message. */
const progress = new Int32Array(written);

let writer: TreeWriter | undefined;
try {
  writer = new TreeWriter(out, { ...options, mirrorElsewhere: true });
  const { mirror } = writer;
  reply({ ready: true, ...(mirror ? { mirror: { from: mirror.from, to: mirror.to } } : {}) });
} catch (err) {
  reply(failure(err));
}

/** The files written since the last reply, for the main thread to link into the mirror while it waits. */
function takeMirrored(): { mirrored?: string[] } {
  if (!writer?.mirrored?.length) return {};
  const mirrored = writer.mirrored;
  writer.mirrored = [];
  return { mirrored };
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
        Atomics.add(progress, 0, ends[i]! - start);
      }
      reply({ ack: paths.length, ...takeMirrored() });
    } else if ('outputs' in message) {
      for (const output of message.outputs) {
        writer.take(output);
        Atomics.add(progress, 0, outputLength(output));
      }
      reply({ ack: message.outputs.length, ...takeMirrored() });
    } else if ('finish' in message) reply({ report: writer.finish() });
    else writer.abort(), reply({ aborted: true });
  } catch (err) {
    writer.abort();
    writer = undefined;
    reply(failure(err));
  }
});
