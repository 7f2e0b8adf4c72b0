import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './index.ts';
import { ensureDatabaseExists, migrateDatabase, migrationsFolder } from './migrate.ts';
import {
  TEST_DATABASE_ADMIN_URL,
  TEST_DATABASE_PREFIX,
  databaseUrl,
} from '../../../../test/support/services.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

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

describe('search indexes', () => {
  it('keep no pending list: every GIN index is written straight, so a search never reads past it', async () => {
    const { rows } = await env.database.db.execute<{ name: string; options: string[] | null }>(sql`
      select c.relname as name, c.reloptions as options
      from pg_class c join pg_am am on am.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
      where am.amname = 'gin' and n.nspname = 'public' order by c.relname`);
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining(['programme_dancers_words_idx', 'videos_search_idx']),
    );
    expect(
      rows
        .filter((row) => !row.options?.some((option) => /^fastupdate=(off|false)$/.test(option)))
        .map((row) => row.name),
    ).toEqual([]);
  });
});

describe('the cart migration (0010)', () => {
  it('turns every purchase made before carts into its one item, and receipts keep their video', async () => {
    // A database migrated as it was before carts (up to 0009), with a purchase of one video in it.
    const name = `${TEST_DATABASE_PREFIX}before_carts_${randomUUID().slice(0, 8)}`;
    const url = databaseUrl(name);
    await ensureDatabaseExists(url);
    const { db, pool } = createDatabase(url, { max: 1 });
    const before = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    try {
      await cp(migrationsFolder, before, { recursive: true });
      const journalFile = path.join(before, 'meta/_journal.json');
      const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
      const cart = journal.entries.findIndex((entry) => entry.tag === '0010_cart_purchase_items');
      journal.entries = journal.entries.slice(0, cart);
      await writeFile(journalFile, JSON.stringify(journal));
      await migrate(db, { migrationsFolder: before });

      const video = await db.execute<{ id: string }>(
        sql`insert into videos (id, title, description, aws_key, price_cents) values (gen_random_uuid()::text, 'Junior Solo Jazz', 'd', 'videos/a.mp4', 1500) returning id`,
      );
      const videoId = video.rows[0]!.id;
      await db.execute(sql`insert into purchases (id, checkout_session_id, video_id, buyer_name, buyer_email, amount_cents, currency, status)
        values (gen_random_uuid()::text, 'cs_before_carts', ${videoId}, 'Mere', 'mere@example.nz', 1500, 'nzd', 'paid')`);

      await migrateDatabase(db);
      const items = await db.execute(
        sql`select i.video_id, i.title, i.list_price_cents, i.amount_cents from purchase_items i
            join purchases p on p.id = i.purchase_id where p.checkout_session_id = 'cs_before_carts'`,
      );
      expect(items.rows).toEqual([
        { video_id: videoId, title: 'Junior Solo Jazz', list_price_cents: 1500, amount_cents: 1500 },
      ]);
    } finally {
      await pool.end();
      await rm(before, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists "${name}"`);
      await admin.end();
    }
  });
});
