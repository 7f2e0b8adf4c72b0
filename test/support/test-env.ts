import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { parseConfig, type Config } from '@app/shared/config';
import { createDatabase, type Database } from '@app/shared/db';
import {
  TEMPLATE_DATABASE,
  TEST_DATABASE_ADMIN_URL,
  TEST_DATABASE_PREFIX,
  TEST_REDIS_URL,
  databaseUrl,
} from './services.ts';

export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

export interface TestEnv {
  /** Environment variables for a spawned api or worker, and the parsed config for in-process use. */
  env: Record<string, string>;
  config: Config;
  database: Database;
  storageDir: string;
  cleanup(): Promise<void>;
}

/**
 * A private world for one test file: a database cloned from the migrated template, a BullMQ and
 * rate-limit prefix no other file uses, and a storage folder. `cleanup` removes all three.
 */
export async function createTestEnv(overrides: Record<string, string> = {}): Promise<TestEnv> {
  const id = randomBytes(6).toString('hex');
  const name = `${TEST_DATABASE_PREFIX}${id}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }
  const storageDir = await mkdtemp(path.join(os.tmpdir(), `stagelight-${id}-`));
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl(name),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `test-${id}`,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    SESSION_SECRET: TEST_SESSION_SECRET,
    STORAGE_DIR: storageDir,
    PUBLIC_URL: 'http://localhost:3000',
    // Tests tell visitors apart by X-Forwarded-For from a client on this machine, as if behind a proxy.
    TRUST_PROXY: 'loopback',
    ...overrides,
  };
  const config = parseConfig(env);
  const database = createDatabase(config.DATABASE_URL, { max: 5 });

  return {
    env,
    config,
    database,
    storageDir,
    async cleanup() {
      await database.pool.end().catch(() => {});
      await deleteRedisPrefix(env.QUEUE_PREFIX!);
      await rm(storageDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
