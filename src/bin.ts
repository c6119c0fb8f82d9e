// The `reflist` executable: only wires process to run().
import { run } from './cli.js';

process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
});
