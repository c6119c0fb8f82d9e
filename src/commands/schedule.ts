// `reflist dev`'s build scheduler: saves become builds, one at a time. An
// editor's burst of writes is one build (a quiet time after the last), and a
// save during a build is built after it, once, whatever the saves it holds.

/** A quiet time after the last change, so that an editor's burst of writes is one build. */
export const DEBOUNCE_MS = 250;

export interface Builds {
  /** A source changed: build once no other change comes for the debounce time. */
  change(file: string): void;
  /** Builds now (the first build); resolves when it ends. */
  now(): Promise<void>;
  /** Stops scheduling and waits for a running build to end. */
  close(): Promise<void>;
}

/**
 * Turns change events into builds, never two at once: `run` gets the files
 * that changed since the last build (none for the first) and reports its own
 * errors. Changes while a build runs make exactly one more build after it.
 */
export function scheduleBuilds(run: (changed: string[]) => Promise<void>, delayMs: number): Builds {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  const start = (): Promise<void> => {
    const changed = [...pending].sort();
    pending = new Set();
    running = run(changed).finally(() => {
      running = undefined;
      // Changes that came during the build: build again, unless the quiet time has not passed yet (the timer will).
      if (pending.size > 0 && !timer && !closed) void start();
    });
    return running;
  };
  return {
    change(file) {
      if (closed) return;
      pending.add(file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        if (!running) void start();
      }, delayMs);
    },
    now: () => running ?? start(),
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
