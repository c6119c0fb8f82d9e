// The writer's thread: hashing and file system calls run here while the main
// thread renders, so a build uses both cores. Messages: {files} batches, each
// acknowledged; then {finish} or {abort}.
import { parentPort, workerData } from 'node:worker_threads';
import { ReflistError } from './errors.js';
import { TreeWriter, type WriteOptions } from './write.js';
import { outputLength, type Output } from './render.js';

export type WorkerRequest = { outputs: Output[] } | { finish: true } | { abort: true };
export type WorkerReply =
  | { ready: true }
  | { ack: number }
  | { report: TreeWriter['report'] }
  | { aborted: true }
  | { error: { message: string; code?: string } };

const port = parentPort!;
const reply = (message: WorkerReply) => port.postMessage(message);
const failure = (err: unknown): WorkerReply => ({
  error: { message: err instanceof Error ? err.message : String(err), code: err instanceof ReflistError ? err.code : undefined },
});

const { out, options, written } = workerData as { out: string; options: WriteOptions; written: SharedArrayBuffer };
/** Text written so far (UTF-16 units, modulo 2^32), read by the main thread without a message. */
const progress = new Int32Array(written);

let writer: TreeWriter | undefined;
try {
  writer = new TreeWriter(out, options);
  reply({ ready: true });
} catch (err) {
  reply(failure(err));
}

port.on('message', (message: WorkerRequest) => {
  if (!writer) {
    if ('abort' in message) reply({ aborted: true });
    return;
  }
  try {
    if ('outputs' in message) {
      for (const output of message.outputs) {
        writer.take(output);
        Atomics.add(progress, 0, outputLength(output));
      }
      reply({ ack: message.outputs.length });
    } else if ('finish' in message) reply({ report: writer.finish() });
    else writer.abort(), reply({ aborted: true });
  } catch (err) {
    writer.abort();
    writer = undefined;
    reply(failure(err));
  }
});
