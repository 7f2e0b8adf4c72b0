import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createDatabase, migrateDatabase } from '@app/shared/db';
import {
  TEMPLATE_DATABASE,
  TEST_DATABASE_ADMIN_URL,
  TEST_DATABASE_PREFIX,
  TEST_REDIS_URL,
  databaseUrl,
} from './services.ts';

/** Tests start the api and worker as production does, from their bundles, made afresh for each run. */
function buildServer(): void {
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('scripts/build-server.mjs failed');
}

/**
 * Once per run: build the server bundles, check the services, and migrate the template every test
 * database is cloned from.
 */
export default async function globalSetup(): Promise<void> {
  buildServer();
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
