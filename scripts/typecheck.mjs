// npm run typecheck [-- <project> ...]: TypeScript 7's native compiler over every project (or the ones
// named), with their own tsconfig (docs/decisions/016). TypeScript 6 stays installed as `typescript` only
// for typescript-eslint; both packages name their binary `tsc`, so node_modules/.bin/tsc may be either one
// and this calls TypeScript 7 through its alias `typescript7`.
import { spawnSync } from 'node:child_process';
import { root } from './lib.mjs';

const projects = process.argv.length > 2 ? process.argv.slice(2) : ['shared', 'api', 'worker', 'web', '.'];
const failed = projects.filter(
  (project) =>
    spawnSync(process.execPath, ['node_modules/typescript7/bin/tsc', '-p', project], {
      cwd: root,
      stdio: 'inherit',
    }).status !== 0,
);
if (failed.length > 0) {
  console.error(`\n✖ typecheck failed in: ${failed.join(', ')}`);
  process.exit(1);
}
