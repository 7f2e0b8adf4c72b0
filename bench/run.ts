// npm run bench: every bench in turn; each prints its figures beside its target.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { root } from './lib.ts';

// Names pick benches; flags (`--seconds=5`) go to each bench run.
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const benches = readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.ts') && !['lib.ts', 'run.ts', 'lighthouse-runs.ts'].includes(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => only.length === 0 || only.includes(name));

let failed = 0;
for (const bench of benches) {
  console.info(`\n=== bench/${bench} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${bench}.ts`, ...flags], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
