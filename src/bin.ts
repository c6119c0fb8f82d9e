#!/usr/bin/env node
// The `reflist` executable: wires process to run(), and tunes the heap.
import { setFlagsFromString } from 'node:v8';
import { run } from './cli.js';

// A build's data is a few long-lived structures plus much short-lived text.
// By default V8 lets the heap grow to several times what survived its last
// full collection, which at a million rows is mostly garbage. Capped at 2×,
// a 1M build stays under 1.5 GB (the figures: docs/performance.md, Memory).
// The flag is read at each collection, so setting it here, before any data,
// takes effect.
setFlagsFromString('--heap-growing-percent=100');

// `reflist build | head` closes the pipe early: what is left to print is
// dropped and the build runs to its end, instead of dying on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
});
