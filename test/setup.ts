// Every tree carries lib/lookup-client.js, so the bundle must be fresh before any test builds one.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/compile.mjs'], { stdio: 'inherit' });
}
