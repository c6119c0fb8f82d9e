// The build's process: `reflist build` (build-process.ts) starts it with a
// heap of the build's memory budget and sends it the build's options, and it
// runs build() there, sending back each line the build logs or warns, each
// phase of its progress and its count of files (at most every TICK_MS), then
// its report or its failure as data.
import { once } from 'node:events';
import { build } from '../build.js';
import type { Progress } from '../progress.js';
import { failureData, type BuildReply, type ProcessOptions } from './build-protocol.js';
import { peakMemory } from './report.js';

const send = process.send?.bind(process);
if (!send)
  throw new Error("commands/build-worker.ts is the build's process: build-process.ts starts it, nothing runs it alone");
const post = (message: BuildReply) => void send(message);
const [options] = (await once(process, 'message')) as [ProcessOptions];

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
    ...options,
    log: (line) => post({ log: line }),
    warn: (line) => post({ warn: line }),
    progress,
  });
  post({ report, peak: peakMemory() });
} catch (err) {
  post({ failure: failureData(err) });
}
// Once the messages are out: the channel alone keeps this process alive.
process.disconnect();
