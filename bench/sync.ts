// Bench 4, sync: a sheet (CSV) of 2,000 rows against 2,000 events; the sync's duration and how many
// SQL statements it issued. Target: under 1 s, and the same number of statements however many rows.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Job } from 'bullmq';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { parseConfig } from '@app/shared/config';
import * as schema from '@app/shared/db/schema';
import { events } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createRedis } from '@app/shared/redis';
import { syncOrderLinks } from '../worker/src/jobs/sync-order-links.ts';
import { prepareBenchEnv, printTable, verdict } from './lib.ts';

async function measure(rowCount: number) {
  const env = await prepareBenchEnv(`sync${rowCount}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-bench-sync-'));
  const csv = path.join(dir, 'links.csv');
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const redis = createRedis(env.REDIS_URL!, 'client');
  let statements = 0;
  // Count every statement the sync sends.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
  });
  const db = drizzle({ client: pool, schema, casing: 'snake_case' });
  try {
    const base = {
      description: 'Bench event',
      date: '2027-05-01',
      location: 'Christchurch',
      eventType: 'competition',
      imageUrl: '/x.jpg',
    };
    for (let start = 0; start < rowCount; start += 500) {
      await db.insert(events).values(
        Array.from({ length: Math.min(500, rowCount - start) }, (_, i) => ({
          ...base,
          title: `Bench Competition ${start + i}`,
        })),
      );
    }
    const lines = [
      'Competition,Date,Order link',
      ...Array.from(
        { length: rowCount },
        (_, i) => `Bench Competition ${i},x,https://form.example/bench-${i}`,
      ),
    ];
    await writeFile(csv, `${lines.join('\n')}\n`);
    const config = parseConfig({ ...env, ORDER_LINKS_CSV: csv });
    const job = {
      id: 'sync-order-links',
      timestamp: Date.now(),
      attemptsMade: 0,
      opts: { attempts: 1 },
      updateProgress: async () => {},
    } as unknown as Job;
    const logger = createLogger({ name: 'bench', level: 'silent' });
    // The sync bumps the public content version in Redis when it changed links.
    const context = { db, config, job, logger, redis } as never;
    statements = 0;
    const started = performance.now();
    const result = (await syncOrderLinks({ trigger: 'cli' }, context)) as unknown as { updatedCount: number };
    const ms = performance.now() - started;
    return { rows: rowCount, ms: Math.round(ms), statements, updated: result.updatedCount };
  } finally {
    redis.disconnect();
    await pool.end();
    await rm(dir, { recursive: true, force: true });
  }
}

const small = await measure(200);
const large = await measure(2_000);
printTable('Order-link sync from a CSV', [
  { rows: small.rows, 'duration ms': small.ms, statements: small.statements, updated: small.updated },
  {
    rows: large.rows,
    'duration ms': `${large.ms} (target < 1000: ${verdict(large.ms < 1_000)})`,
    statements: `${large.statements} (constant: ${verdict(large.statements === small.statements)})`,
    updated: large.updated,
  },
]);
