import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createDatabase, migrateDatabase } from '@app/shared/db';
import { CANARY_SECRETS } from './canary-secrets.mjs';
import { TEMPLATE_DATABASE, TEST_DATABASE_ADMIN_URL, TEST_DATABASE_PREFIX, TEST_REDIS_URL, databaseUrl } from './services.ts';

/**
 * The run's one build (web app and server bundles, `npm run build`): tests start the api and worker as
 * production does, from their bundles, and serve the web app the api serves. Built with canary secrets in
 * the environment, as a production build on a configured machine is, so the bundle-secrets test can look
 * for them in what was built. `npm test` builds before its lanes (scripts/test.mjs) and sets TEST_BUILT=1.
 */
function build(): void {
  if (process.env.TEST_BUILT === '1') return;
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    // vitest sets NODE_ENV=test, which would make vite build React's development bundle.
    env: { ...process.env, NODE_ENV: 'production', ...CANARY_SECRETS },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * Once per run: build, check the services, and migrate the template every test
 * database is cloned from.
 */
export default async function globalSetup(): Promise<void> {
  build();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_DATABASE_ADMIN_URL} (${(error as Error).message}). ` +
        'Start it (see .ci/run) or set TEST_DATABASE_ADMIN_URL.',
      { cause: error },
    );
  }
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    await admin.end();
    throw new Error(
      `Redis is not reachable at ${TEST_REDIS_URL} (${(error as Error).message}). Start it (see .ci/run) or set TEST_REDIS_URL.`,
      { cause: error },
    );
  } finally {
    redis.disconnect();
  }

  try {
    // Databases left by an interrupted earlier run of this checkout (other checkouts have their own prefix).
    const stale = await admin.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) and datname <> $2',
      [TEST_DATABASE_PREFIX, TEMPLATE_DATABASE],
    );
    for (const { datname } of stale.rows)
      await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.query(`drop database if exists "${TEMPLATE_DATABASE}" with (force)`);
    await admin.query(`create database "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }

  const { db, pool } = createDatabase(databaseUrl(TEMPLATE_DATABASE), { max: 1 });
  try {
    await migrateDatabase(db);
  } finally {
    await pool.end();
  }
}
