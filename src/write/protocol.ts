// The messages and shared counters between the main thread (threaded.ts)
// and the writer's thread (worker.ts), in a module of their own so that
// neither imports the other.
import type { Output } from '../tree-files.js';
import type { WriteReport } from './write.js';

/** Counters the two threads share: messages posted and not yet handled; the worker links ahead only while there are none. */
export const COUNTERS = { queued: 0 } as const;

/** Files as they cross threads: file i is bytes[ends[i - 1] .. ends[i]). */
export interface FileBatch {
  paths: string[];
  ends: number[];
  bytes: Uint8Array;
}

export type WorkerRequest = { files: FileBatch } | { outputs: Output[] } | { linkAhead: true } | { finish: true } | { abort: true };
export type WorkerReply =
  | { ready: true }
  | { ack: number }
  | { report: WriteReport }
  | { aborted: true }
  | { error: { message: string; code?: string } };
