import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from './migrate.ts';
import { useTestWorld } from '../../../test/support/world.ts';

const { env } = useTestWorld();

describe('migrations', () => {
  it('apply again, twice and concurrently, without error or change', async () => {
    const { db } = env.database;
    const before = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    await migrateDatabase(db);
    await Promise.all([migrateDatabase(db), migrateDatabase(db)]);
    const after = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(after.rows).toEqual(before.rows);
    const tables = await db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        'contacts',
        'events',
        'portfolio_items',
        'purchases',
        'sales',
        'sessions',
        'showcases',
        'videos',
      ]),
    );
  });
});
