// Where a command's output goes (Io), and the progress of a long build: a line
// redrawn in place on a terminal, a plain line every few seconds otherwise
// (CI logs), nothing with --quiet.

/** A command's output: the CLI passes the process's streams, tests collect the text. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where build progress goes (a terminal gets a bar); none in tests. */
  progress?: ProgressSink;
}

export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
}

export interface Progress {
  /** A new phase starts ("reading sources"). */
  phase(name: string): void;
  /** `done` files of the current phase are finished. */
  tick(done: number): void;
  /** Clears the line. */
  end(): void;
}

/**
 * Progress as a line: the phase, the files done so far and the time, redrawn
 * in place on a terminal, every five seconds otherwise. No total and no bar:
 * the build cannot know how many files it makes before it has made them, and
 * a guess that is off tenfold misleads more than a count (docs/architecture.md).
 */
export function createProgress(sink: ProgressSink | undefined, now: () => number = () => performance.now()): Progress {
  if (!sink) return { phase() {}, tick() {}, end() {} };
  const started = now();
  let name = '';
  let last = 0;
  let drawn = false;
  const line = (done?: number) =>
    `${name}${done === undefined ? '' : `: ${done.toLocaleString('en-US')} file${done === 1 ? '' : 's'}`} (${((now() - started) / 1000).toFixed(1)} s)`;
  return {
    phase(next) {
      name = next;
      if (sink.isTTY) {
        sink.write(`\r\x1b[2K${line()}`);
        drawn = true;
      }
    },
    tick(done) {
      const t = now();
      if (t - last < (sink.isTTY ? 100 : 5000)) return;
      last = t;
      if (sink.isTTY) {
        sink.write(`\r\x1b[2K${line(done)}`);
        drawn = true;
      } else sink.write(`${line(done)}\n`);
    },
    end() {
      if (drawn) sink.write('\r\x1b[2K');
    },
  };
}
