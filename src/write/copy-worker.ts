// The copies' thread (copies.ts): compresses and writes each batch of
// --compress's copies it is sent, and replies with their bytes, counting its
// replies in a shared counter that the writer waits on.
import { workerData, type MessagePort } from 'node:worker_threads';
import { makeCopies, type CopyJob, type CopyReply } from './copies.js';

const { port, replied } = workerData as { port: MessagePort; replied: SharedArrayBuffer };
const counter = new Int32Array(replied);

port.on('message', (jobs: CopyJob[]) => {
  let reply: CopyReply;
  try {
    reply = { bytes: jobs.flatMap(makeCopies) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
});
