// npm test: install if needed, typecheck, lint, then the tests in two runs: the unit and fast lanes
// (which build the web app and server bundles once, in vitest's global setup), and, only when they
// pass, the slow lane (Chromium, processes, drills) on that same build. Arguments go to both runs.
import { ensureDependencies, run } from './lib.mjs';

ensureDependencies();
run('npm', ['run', 'typecheck', '--silent']);
run('npm', ['run', 'lint', '--silent']);
const args = process.argv.slice(2);
run('npx', ['vitest', 'run', '--project', 'unit', '--project', 'fast', '--passWithNoTests', ...args]);
run('npx', ['vitest', 'run', '--project', 'slow', '--passWithNoTests', ...args], { env: { ...process.env, TEST_BUILT: '1' } });
