// The progress of a long build: a bar on a terminal, a line every few seconds in a log.
import { describe, expect, test } from 'vitest';
import { createProgress } from '../src/progress.js';

function sinkAndClock(isTTY: boolean) {
  const lines: string[] = [];
  let t = 0;
  const progress = createProgress({ isTTY, write: (text) => lines.push(text) }, () => t);
  return { lines, progress, later: (ms: number) => (t += ms) };
}

describe('build progress', () => {
  test('a log gets a line every five seconds, with the estimate while the count is within it', () => {
    const { lines, progress, later } = sinkAndClock(false);
    progress.phase('writing files', 1000);
    later(5000), progress.tick(400);
    later(1000), progress.tick(500); // too soon for another line
    later(5000), progress.tick(1500);
    expect(lines).toEqual(['writing files: 400 of ~1,000 (5.0 s)\n', 'writing files: 1,500 (11.0 s)\n']);
  });

  test('a terminal gets a bar redrawn in place, and the count alone once it passes the estimate', () => {
    const { lines, progress, later } = sinkAndClock(true);
    progress.phase('writing files', 200);
    later(200), progress.tick(100);
    later(200), progress.tick(300);
    progress.end();
    expect(lines).toEqual([
      '\r\x1b[2Kwriting files [░░░░░░░░░░░░░░░░░░░░░░░░] 0% 0 of ~200 (0.0 s)',
      '\r\x1b[2Kwriting files [████████████░░░░░░░░░░░░] 50% 100 of ~200 (0.2 s)',
      '\r\x1b[2Kwriting files 300 (0.4 s)',
      '\r\x1b[2K',
    ]);
  });
});
