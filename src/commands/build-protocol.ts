// The messages between `reflist build` (build-process.ts) and the build's
// process (build-worker.ts), in a module of their own so that neither imports
// the other: what the build prints and its progress as it goes, then its
// report or its failure. A failure crosses as plain data (structured clone would
// keep an Error's message and stack but lose its class, its code, its
// location and its hint) and is rebuilt here as the error it was.
import type { BuildOptions, BuildReport } from '../build.js';
import type { HostName } from '../config/hosts.js';
import { ReflistError, ReflistErrors, type ErrorCode } from '../errors.js';
import { errorData, revive, type ErrorData } from '../write/protocol.js';

/** What the build process builds from: the CLI's options, which are plain data (a host by its name). */
export type ProcessOptions = Omit<BuildOptions, 'log' | 'warn' | 'progress' | 'host'> & { host?: HostName };

export type BuildReply =
  | { log: string }
  | { warn: string }
  | { phase: string }
  | { tick: number }
  | { end: true }
  | { report: BuildReport; peak: number }
  | { failure: Failure };

/** A build's failure as data: one error, or a ReflistErrors' list of them. */
export interface Failure extends ErrorData {
  errors?: ErrorData[];
}

export function failureData(err: unknown): Failure {
  if (err instanceof ReflistErrors) return { ...errorData(err), errors: err.errors.map(errorData) };
  return errorData(err);
}

/** A ReflistError as it was thrown in the other process: code, message, location, hint, errno and cause. */
function reflistError(data: ErrorData): ReflistError {
  const err = new ReflistError(
    data.code as ErrorCode,
    data.message,
    { file: data.file, line: data.line },
    data.hint,
    data.cause === undefined ? { errno: data.errno } : { cause: revive(data.cause), errno: data.errno },
  );
  if (data.stack !== undefined) err.stack = data.stack;
  return err;
}

/** The built-in errors a fault may be, so that one crosses as what it was (a TypeError, not an Error named so). */
const BUILT_IN: Record<string, ErrorConstructor> = {
  TypeError,
  RangeError,
  ReferenceError,
  SyntaxError,
  EvalError,
  URIError,
};

/**
 * The failure as this process throws it: the same ReflistErrors or ReflistError
 * (so the CLI prints it as it prints any), and anything else, a fault of
 * reflist's own, as the error it was, with its name, message and stack there.
 */
export function failureError(failure: Failure): Error {
  if (failure.errors) {
    const err = new ReflistErrors(failure.errors.map(reflistError));
    if (failure.stack !== undefined) err.stack = failure.stack;
    return err;
  }
  if (failure.name === 'ReflistError') return reflistError(failure);
  const err = revive(failure);
  const builtIn = BUILT_IN[failure.name];
  return builtIn ? Object.setPrototypeOf(err, builtIn.prototype) : err;
}
