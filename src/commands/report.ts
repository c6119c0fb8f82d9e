// What `reflist build` prints once a build has succeeded: its rows, what
// became of each list, how the tree fits its hosts, and what was written, in
// how long and in how much memory.
import { readFileSync } from 'node:fs';
import { fitLine } from '../advice.js';
import type { BuildReport } from '../build.js';
import type { How } from '../plan/plan.js';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

/**
 * This process's peak resident memory. Linux's maxRSS survives exec, so a
 * build spawned by a large process would report that one's peak: the
 * high-water mark of this process's own memory comes first.
 */
export function peakMemory(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (kb) return Number(kb[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** What became of a root list and the lists under it, as the build's report says it. */
const HOW: Record<How, string> = {
  rendered: 'built from the sources',
  edited: 'edited in place (from the rows that changed)',
  updated: 'updated in place',
  kept: 'kept (sources unchanged)',
};

/** The report's lines, for a tree built at `out` by a process whose peak memory was `peakBytes`. */
export function buildReport(report: BuildReport, out: string, peakBytes = peakMemory()): string[] {
  const rows = Object.entries(report.rows)
    .map(([list, n]) => `${list} ${n}`)
    .join(', ');
  const seconds = (report.ms / 1000).toFixed(2);
  const peak = mb(peakBytes);
  const hows = new Map<How, string[]>();
  for (const [section, how] of Object.entries(report.sections)) hows.set(how, [...(hows.get(how) ?? []), section]);
  return [
    `rows: ${rows}`,
    `lists: ${[...hows].map(([how, sections]) => `${sections.join(', ')} ${HOW[how]}`).join('; ')}`,
    fitLine(report.size, out),
    report.unchanged
      ? `unchanged: nothing written in ${seconds} s (peak memory ${peak})`
      : `wrote ${report.written} changed files, linked ${report.copied} unchanged, removed ${report.removed} in ${seconds} s (peak memory ${peak})`,
  ];
}
