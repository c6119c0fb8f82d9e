// The progress of a long build: a line redrawn in place on a terminal, a line every few seconds in a log, each
// with the phase in words a person knows, the files done so far and the time; never a total it cannot know.
import { describe, expect, test } from 'vitest';
import { createProgress } from '../../src/progress.js';

function sinkAndClock(isTTY: boolean) {
  const lines: string[] = [];
  let t = 0;
  const progress = createProgress({ isTTY, write: (text) => lines.push(text) }, () => t);
  return { lines, progress, later: (ms: number) => (t += ms) };
}

describe('build progress', () => {
  test('a log gets a line every five seconds: the phase, the files written so far, the time', () => {
    const { lines, progress, later } = sinkAndClock(false);
    progress.phase('indexing and writing files');
    later(5000);
    progress.tick(400);
    later(1000);
    progress.tick(500); // too soon for another line
    later(5000);
    progress.tick(1500);
    expect(lines).toEqual([
      'indexing and writing files: 400 files (5.0 s)\n',
      'indexing and writing files: 1,500 files (11.0 s)\n',
    ]);
  });

  test('a terminal gets each phase as it starts, then the count redrawn in place, and the line cleared at the end', () => {
    const { lines, progress, later } = sinkAndClock(true);
    progress.phase('reading sources');
    later(300);
    progress.phase('checking sources');
    later(200);
    progress.phase('indexing and writing files');
    later(200);
    progress.tick(100);
    later(50);
    progress.tick(200); // too soon to redraw
    later(100);
    progress.tick(300);
    progress.end();
    expect(lines).toEqual([
      '\r\x1b[2Kreading sources (0.0 s)',
      '\r\x1b[2Kchecking sources (0.3 s)',
      '\r\x1b[2Kindexing and writing files (0.5 s)',
      '\r\x1b[2Kindexing and writing files: 100 files (0.7 s)',
      '\r\x1b[2Kindexing and writing files: 300 files (0.8 s)',
      '\r\x1b[2K',
    ]);
  });
});
