// npm test: install if needed; then typecheck, lint and the build side by side (each is mostly one
// core's work, and the machine has two); then the unit and fast lanes, and, only when they pass, the
// slow lane (Chromium, processes, drills), both on that one build. Arguments go to both vitest runs.
import { ensureDependencies, root, run, runSideBySide } from './lib.mjs';
import { CANARY_SECRETS } from '../test/support/canary-secrets.mjs';

ensureDependencies();
await runSideBySide([
  ['npm', ['run', 'typecheck', '--silent']],
  ['npm', ['run', 'lint', '--silent']],
  // The production build, with canary secrets in its environment as a configured machine has real
  // ones: test/e2e/bundle-secrets.test.ts looks for them in what was built.
  [
    'npm',
    ['run', 'build', '--silent'],
    { env: { ...process.env, NODE_ENV: 'production', ...CANARY_SECRETS } },
  ],
]);
const args = process.argv.slice(2);
const built = { env: { ...process.env, TEST_BUILT: '1' }, cwd: root };
run('npx', ['vitest', 'run', '--project', 'unit', '--project', 'fast', '--passWithNoTests', ...args], built);
run('npx', ['vitest', 'run', '--project', 'slow', '--passWithNoTests', ...args], built);
