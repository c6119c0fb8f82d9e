// The `reflist` executable: wires process to run(), and tunes the heap.
import { setFlagsFromString } from 'node:v8';
import { run } from './cli.js';

// A build's data is a few long-lived structures plus much short-lived text.
// By default V8 lets the heap grow to up to 4× what survived its last full
// collection; at a million rows that made a peak RSS of 1.75 GB, mostly
// garbage. Capped at 2×, builds peaked at 1.40-1.54 GB (the peak depends on
// where the collections fall); at 1.75×, at 1.33-1.42 GB, for about 5% more
// time. The flag is read at each collection, so setting it here, before any
// data, takes effect.
setFlagsFromString('--heap-growing-percent=75');

process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
});
