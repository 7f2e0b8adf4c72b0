// Helpers for the start and test scripts (plain Node, so they run before dependencies exist).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs a command in the repository root, inheriting output; exits the script when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${[command, ...args].join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/**
 * Runs commands at the same time, each one's output held back and printed whole when it ends (so
 * they do not interleave); exits the script when any failed, after all have ended.
 */
export async function runSideBySide(commands) {
  const results = await Promise.all(
    commands.map(
      ([command, args, options = {}]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: root, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (status, signal) => {
            const name = [command, ...args].join(' ');
            process.stdout.write(Buffer.concat(output));
            const seconds = ((Date.now() - started) / 1000).toFixed(0);
            console.info(`${status === 0 ? '✓' : '✖'} ${name} (${seconds} s)`);
            resolve({ name, status: status ?? signal });
          });
        }),
    ),
  );
  const failed = results.filter((result) => result.status !== 0);
  if (failed.length > 0) {
    console.error(
      `\n✖ failed: ${failed.map((result) => `${result.name} (exit ${result.status})`).join(', ')}`,
    );
    process.exit(1);
  }
}

/** Installs dependencies on a fresh clone (or after the lockfile changed). */
export function ensureDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed)) return;
  console.info('Installing dependencies (npm ci)...');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Loads .env when present, without overriding variables already set. */
export function loadDotEnv() {
  const file = path.join(root, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}
