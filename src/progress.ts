// Where a command's output goes (Io), and the progress of a long build: a bar
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
  /** A new phase starts ("reading sources"); `total` is an estimate when known. */
  phase(name: string, total?: number): void;
  /** `done` units of the current phase are finished. */
  tick(done: number): void;
  /** Clears the bar. */
  end(): void;
}

const WIDTH = 24;

export function createProgress(sink: ProgressSink | undefined, now: () => number = () => performance.now()): Progress {
  if (!sink) return { phase() {}, tick() {}, end() {} };
  const started = now();
  let name = '';
  let estimate: number | undefined;
  let last = 0;
  let drawn = false;
  const seconds = () => ((now() - started) / 1000).toFixed(1);
  const draw = (done: number) => {
    // An estimate that the count has passed says nothing more: the count goes on alone.
    const total = estimate !== undefined && done <= estimate ? estimate : undefined;
    if (sink.isTTY) {
      const fraction = total ? Math.min(done / total, 1) : 0;
      const filled = Math.round(fraction * WIDTH);
      const bar = total ? `[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] ${Math.floor(fraction * 100)}% ` : '';
      sink.write(
        `\r\x1b[2K${name} ${bar}${done.toLocaleString('en-US')}${total ? ` of ~${total.toLocaleString('en-US')}` : ''} (${seconds()} s)`,
      );
      drawn = true;
    } else {
      sink.write(
        `${name}: ${done.toLocaleString('en-US')}${total ? ` of ~${total.toLocaleString('en-US')}` : ''} (${seconds()} s)\n`,
      );
    }
  };
  return {
    phase(next, total) {
      [name, estimate] = [next, total];
      if (sink.isTTY) draw(0);
    },
    tick(done) {
      const t = now();
      if (t - last < (sink.isTTY ? 100 : 5000)) return;
      last = t;
      draw(done);
    },
    end() {
      if (drawn) sink.write('\r\x1b[2K');
    },
  };
}
