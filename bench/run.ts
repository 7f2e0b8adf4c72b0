// npm run bench: every bench in turn; each prints its figures beside its target.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { root } from './lib.ts';

const only = process.argv.slice(2);
const benches = readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.ts') && !['lib.ts', 'run.ts'].includes(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => only.length === 0 || only.includes(name));

let failed = 0;
for (const bench of benches) {
  console.info(`\n=== bench/${bench} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${bench}.ts`], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
