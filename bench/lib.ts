// Shared by the benches: a fresh seeded database, the real api and worker in production mode, autocannon.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { hashPassword } from '@app/shared/password';
import { CHECKOUT, databaseUrl, TEST_DATABASE_ADMIN_URL, TEST_REDIS_URL } from '../test/support/services.ts';

/** The bench's `--name N` flags, each a number with its default (a flag that is not a number reads NaN). */
export function numberFlags<K extends string>(defaults: Record<K, number>): Record<K, number> {
  const names = Object.keys(defaults) as K[];
  const { values } = parseArgs({
    options: Object.fromEntries(
      names.map((name) => [name, { type: 'string' as const, default: String(defaults[name]) }]),
    ),
  });
  return Object.fromEntries(names.map((name) => [name, Number(values[name])])) as Record<K, number>;
}

export const root = fileURLToPath(new URL('..', import.meta.url));
export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';

/** Environment for a production-mode api/worker on its own freshly seeded database and queue prefix. */
export async function prepareBenchEnv(name: string): Promise<Record<string, string>> {
  // Named for the checkout too, as test databases are (decision 002): two people bench at once.
  const database = `stagelight_bench_${CHECKOUT}_${name}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${database}" with (force)`);
  await admin.query(`create database "${database}"`);
  await admin.end();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl(database),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `bench-${name}-${process.pid}`,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    ADMIN_PASSWORD_HASH: await hashPassword(BENCH_ADMIN_PASSWORD),
    STORAGE_DIR: `data/bench-${name}`,
    // What production requires (shared/src/config.ts); mail is only logged.
    PUBLIC_URL: 'http://127.0.0.1',
    OWNER_EMAIL: 'owner@bench.example',
    PUBLIC_CONTACT_EMAIL: 'hello@bench.example',
    MAIL_DISABLED: 'true',
    LOG_LEVEL: 'warn',
  };
  // The api and worker run from their bundles (test/support/processes.ts), made afresh here.
  for (const script of ['scripts/build-server.mjs', 'shared/src/db/migrate-cli.ts', 'scripts/seed.ts']) {
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (result.status !== 0) throw new Error(`${script} failed`);
  }
  return env;
}

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** autocannon with the anchor settings: 50 connections on loopback. */
export async function load(
  url: string,
  options: { seconds?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: 50,
    duration: options.seconds ?? 5,
    headers: options.headers,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export function verdict(ok: boolean): string {
  return ok ? 'meets target' : 'MISSES target';
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.info(`\n${title}`);
  console.table(rows);
}
