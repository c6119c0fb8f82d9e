// The messages between the main thread (threaded.ts) and the writer's
// thread (worker.ts), in a module of their own so that neither imports the
// other.
import { ReflistError, type ErrorCode } from '../errors.js';
import type { Output } from '../tree-files.js';
import type { WriteReport } from './write.js';

/** Files as they cross threads: file i is bytes[ends[i - 1] .. ends[i]). */
export interface FileBatch {
  paths: string[];
  ends: number[];
  bytes: Uint8Array;
}

export type WorkerRequest = { files: FileBatch } | { outputs: Output[] } | { finish: true } | { abort: true };
export type WorkerReply =
  | { ready: true }
  | { ack: number }
  | { report: WriteReport }
  | { aborted: true }
  | { error: ErrorData };

/**
 * An error as it crosses from the writer's thread: postMessage would keep an
 * Error's message and stack but lose its class, its code, its location and
 * a Node error's errno and path, so all of it goes as plain data.
 */
export interface ErrorData {
  name: string;
  message: string;
  stack?: string | undefined;
  /** A ReflistError's code, or a Node error's (`EACCES`). */
  code?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
  hint?: string | undefined;
  errno?: string | undefined;
  syscall?: string | undefined;
  path?: string | undefined;
  cause?: ErrorData | undefined;
}

export function errorData(err: unknown): ErrorData {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const { name, message, stack, cause } = err;
  const { code, errno, syscall, path } = err as Error & {
    code?: unknown;
    errno?: unknown;
    syscall?: unknown;
    path?: unknown;
  };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const data: ErrorData = {
    name,
    message,
    stack,
    code: text(code),
    errno: text(errno),
    syscall: text(syscall),
    path: text(path),
  };
  if (err instanceof ReflistError) Object.assign(data, { file: err.file, line: err.line, hint: err.hint });
  if (cause !== undefined) data.cause = errorData(cause);
  return data;
}

/** The other thread's error rebuilt as it was thrown there: its name, message, stack, Node's error fields and cause. */
export function revive(data: ErrorData): Error {
  const err = new Error(data.message, data.cause && { cause: revive(data.cause) });
  err.name = data.name;
  err.stack = data.stack;
  for (const key of ['code', 'errno', 'syscall', 'path'] as const)
    if (data[key] !== undefined) Object.assign(err, { [key]: data[key] });
  return err;
}

/**
 * The writer thread's failure as this thread throws it: a ReflistError with
 * the code, message and location it had there (INTERNAL for anything but a
 * ReflistError), and as its cause the error rebuilt, with its stack.
 */
export function writerError(data: ErrorData): ReflistError {
  const ours = data.name === 'ReflistError';
  const code = (ours ? data.code : 'INTERNAL') as ErrorCode;
  const message = ours ? data.message : `the writer thread failed: ${data.message}`;
  return new ReflistError(code, message, { file: data.file, line: data.line }, data.hint, {
    cause: revive(data),
    errno: data.errno,
  });
}
