// The build's thread: `reflist build` (build-thread.ts) starts it with a heap
// of the build's memory budget, and it runs build() there, posting back each
// line the build logs or warns, each phase of its progress and its count of
// files (at most every TICK_MS), then its report or its failure as data.
import { parentPort, workerData } from 'node:worker_threads';
import { build } from '../build.js';
import type { Progress } from '../progress.js';
import { failureData, type BuildReply, type ThreadOptions } from './build-protocol.js';

if (!parentPort)
  throw new Error("commands/build-worker.ts is the build's thread: build-thread.ts starts it, nothing runs it alone");
const port = parentPort;
const post = (message: BuildReply) => port.postMessage(message);

/**
 * A count of files goes at most this often: the progress line is redrawn
 * every 100 ms at most, and a message a file would cost more than the file.
 */
const TICK_MS = 25;

let ticked = -Infinity;
const progress: Progress = {
  phase: (name) => post({ phase: name }),
  tick(done) {
    const now = performance.now();
    if (now - ticked < TICK_MS) return;
    ticked = now;
    post({ tick: done });
  },
  end: () => post({ end: true }),
};

try {
  const report = await build({
    ...(workerData as ThreadOptions),
    log: (line) => post({ log: line }),
    warn: (line) => post({ warn: line }),
    progress,
  });
  post({ report });
} catch (err) {
  post({ failure: failureData(err) });
}
