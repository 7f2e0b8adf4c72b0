// npm test: install if needed, then typecheck, lint, build the web app, and run every test.
import { ensureDependencies, run } from './lib.mjs';

ensureDependencies();
run('npm', ['run', 'typecheck', '--silent']);
run('npm', ['run', 'lint', '--silent']);
run('npm', ['run', 'build', '--silent']);
run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
