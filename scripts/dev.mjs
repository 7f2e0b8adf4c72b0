// npm run dev: api and worker restarting on change, and vite (with a proxy to the api) for the web app.
import { spawn } from 'node:child_process';
import { ensureDependencies, loadDotEnv, root, run } from './lib.mjs';

ensureDependencies();
loadDotEnv();
run(process.execPath, ['--import', 'tsx', 'shared/src/server/db/migrate-cli.ts']);
run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts']);

const commands = [
  ['npx', ['tsx', 'watch', 'api/src/index.ts']],
  ['npx', ['tsx', 'watch', 'worker/src/index.ts']],
  ['npx', ['vite', '--config', 'web/vite.config.ts']],
];
const children = commands.map(([command, args]) => spawn(command, args, { cwd: root, stdio: 'inherit' }));
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.info('\n  Web (vite): http://localhost:5173   api: http://localhost:3000\n');
