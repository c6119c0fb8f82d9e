// The writer's thread: hashing and file system calls run here while the main
// thread renders, so a build uses both cores. Messages: {files} batches, each
// acknowledged; then {finish} or {abort}.
import { parentPort, workerData } from 'node:worker_threads';
import { ioError } from '../errors.js';
import { TreeWriter, type WriteOptions } from './write.js';
import { errorData, type WorkerReply, type WorkerRequest } from './protocol.js';

if (!parentPort)
  throw new Error("write/worker.ts is the writer's thread: threaded.ts starts it, nothing runs it alone");
const port = parentPort;
const reply = (message: WorkerReply) => port.postMessage(message);
const failure = (err: unknown): WorkerReply => ({ error: errorData(ioError(err)) });

const { out, options } = workerData as { out: string; options: WriteOptions };

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
    if ('files' in message) {
      const { paths, ends, bytes } = message.files;
      for (const [i, path] of paths.entries()) {
        const start = i === 0 ? 0 : ends[i - 1]!;
        writer.add(path, bytes.subarray(start, ends[i]));
      }
      reply({ ack: paths.length });
    } else if ('outputs' in message) {
      for (const output of message.outputs) writer.take(output);
      reply({ ack: message.outputs.length });
    } else if ('finish' in message) reply({ report: writer.finish() });
    else {
      writer.abort();
      reply({ aborted: true });
    }
  } catch (err) {
    writer.abort();
    writer = undefined;
    reply(failure(err));
  }
});
