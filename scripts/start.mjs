// npm start: install, migrate, seed, build, then run api + worker until Ctrl-C.
import { spawn } from 'node:child_process';
import { ensureDependencies, loadDotEnv, root, run } from './lib.mjs';

ensureDependencies();
loadDotEnv();

run(process.execPath, ['--import', 'tsx', 'shared/src/server/db/migrate-cli.ts']);
run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts']);
run('npm', ['run', 'build', '--silent']);

const children = ['api', 'worker'].map((name) => {
  // The bundles `npm run build` made (docs/decisions/001), with V8 heap limits that keep resident
  // memory low (docs/decisions/011).
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=4', '--max-old-space-size=384', `${name}/dist/index.mjs`],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      // Two malloc arenas: libvips' threads otherwise each grow their own; a fixed mmap threshold: large
      // picture buffers go back to the system when freed instead of fragmenting the heap (decision 021).
      env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', ...process.env },
    },
  );
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${name} stopped (${signal ?? `exit ${code}`}); stopping the other process.`);
    stop(code ?? 1);
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  Promise.all(
    children.map((child) => (child.exitCode !== null ? null : new Promise((r) => child.once('exit', r)))),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const port = process.env.PORT ?? '3000';
const url = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const login = process.env.ADMIN_PASSWORD_HASH
  ? 'the password whose hash is in ADMIN_PASSWORD_HASH'
  : `password "${process.env.ADMIN_PASSWORD ?? 'stagelight-admin'}" (ADMIN_PASSWORD; development only)`;
setTimeout(() => {
  if (stopping) return;
  console.info(`\n  Site:   ${url}\n  Admin:  ${url}/admin, ${login}\n  Stop:   Ctrl-C\n`);
}, 1500);
