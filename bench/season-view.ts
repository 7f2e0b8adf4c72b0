// Bench: the owner's season view (issue 30, decision 034) at a season's scale: --showcases competitions
// of --entries entries each (60 x 400 = 24,000), --videos videos (50,000: one per entry, the rest
// without an entry), --purchases checkouts over 90 days (70 % paid) and 90 days of searches that found
// nothing. Prints the season view's time for the largest showcase (warm, median and slowest of --runs)
// and the time of one upsert group of the search log. Its own database; no api or worker.
//   node --import tsx bench/season-view.ts [--videos 50000] [--purchases 60000] [--runs 20] [--keep 1]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { seasonView } from '../api/src/features/season-view/season-view.service.ts';
import { searchMissesWritten, searchMissLog } from '../api/src/features/search-misses/search-miss-log.ts';
import { CHECKOUT, databaseUrl, TEST_DATABASE_ADMIN_URL } from '../test/support/services.ts';
import { numberFlags, root } from './lib.ts';

const flags = numberFlags({
  showcases: 60,
  entries: 400,
  videos: 50_000,
  purchases: 60_000,
  runs: 20,
  keep: 0,
});
const TARGET_MS = 250;

const database = `stagelight_bench_${CHECKOUT}_season`;
const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
await admin.connect();
await admin.query(`drop database if exists "${database}" with (force)`);
await admin.query(`create database "${database}"`);
await admin.end();
const url = databaseUrl(database);
const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'shared/src/server/db/migrate-cli.ts'], {
  cwd: root,
  env: { ...process.env, DATABASE_URL: url },
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (migrated.status !== 0) throw new Error('migration failed');

const { db, pool } = createDatabase(url, { max: 4 });
const started = performance.now();
const { showcases: S, entries: E, videos: V, purchases: P } = flags;
await db.execute(sql`
  insert into showcases (id, name, description, slug)
  select 's' || i, 'Competition ' || i, '', 'competition-' || i from generate_series(1, ${S}::int) i`);
await db.execute(sql`
  insert into programme_studios (id, showcase_id, name)
  select 'st' || s || '-' || k, 's' || s, 'Studio ' || k from generate_series(1, ${S}::int) s, generate_series(1, 20) k`);
await db.execute(sql`
  insert into programme_entries (id, showcase_id, entry_number, entry_sort, section, title, studio_id)
  select 'e' || s || '-' || n, 's' || s, n::text, n,
    (array['Junior Solo Jazz', 'Senior Lyrical', 'Intermediate Tap Duo', 'Open Troupe'])[1 + n % 4],
    (array['Firefly', 'Rain', 'Tides', 'Storm', 'Embers'])[1 + n % 5], 'st' || s || '-' || (1 + n % 20)
  from generate_series(1, ${S}::int) s, generate_series(1, ${E}::int) n`);
await db.execute(sql`
  insert into programme_dancers (id, showcase_id, name)
  select 'd' || s || '-' || k, 's' || s,
    (array['Aroha', 'Mia', 'Zoë', 'Māia', 'Ana', 'Kiri', 'Ruby', 'Isla'])[1 + k % 8] || ' ' ||
    (array['Smith', 'Ngata', 'Müller', 'Lee', 'Tane', 'Clarke', 'Hale'])[1 + k % 7] || ' ' || k
  from generate_series(1, ${S}::int) s, generate_series(1, ${Math.round(E / 4)}::int) k`);
await db.execute(sql`
  insert into programme_entry_dancers (entry_id, dancer_id)
  select 'e' || s || '-' || n, 'd' || s || '-' || (1 + (n * 7) % ${Math.round(E / 4)}::int)
  from generate_series(1, ${S}::int) s, generate_series(1, ${E}::int) n`);
// One video per entry, then the rest spread over the showcases without an entry.
await db.execute(sql`
  insert into videos (id, title, description, aws_key, showcase_id, entry_id, price_cents, processing_state, visits)
  select 'v' || i, 'Video ' || i, '', 'videos/' || i || '.mp4', 's' || (1 + (i - 1) / ${E}::int),
    'e' || (1 + (i - 1) / ${E}::int) || '-' || (1 + (i - 1) % ${E}::int), 1500,
    (array['ready', 'ready', 'ready', 'ready', 'processing', 'failed'])[1 + i % 6], (i * 37) % 120
  from generate_series(1, ${Math.min(V, S * E)}::int) i`);
await db.execute(sql`
  insert into videos (id, title, description, aws_key, showcase_id, price_cents, processing_state, visits)
  select 'v' || i, 'Video ' || i, '', 'videos/' || i || '.mp4', 's' || (1 + i % ${S}::int), 1500, 'ready', i % 50
  from generate_series(${S * E + 1}::int, ${V}::int) i`);
await db.execute(sql`
  insert into purchases (id, checkout_session_id, buyer_name, buyer_email, amount_cents, currency, status, paid_at, created_at)
  select 'p' || i, 'cs_' || i, 'Buyer', 'b' || i || '@example.nz', 1500, 'nzd',
    (array['paid', 'paid', 'paid', 'paid', 'paid', 'paid', 'paid', 'expired', 'expired', 'pending'])[1 + i % 10],
    case when i % 10 < 7 then now() - make_interval(mins => (i * 7919) % (90 * 24 * 60)) end,
    now() - make_interval(mins => (i * 7919) % (90 * 24 * 60))
  from generate_series(1, ${P}::int) i`);
await db.execute(sql`
  insert into purchase_items (id, purchase_id, video_id, title, list_price_cents, amount_cents)
  select gen_random_uuid()::text, 'p' || i, 'v' || (1 + (i::bigint * 104729) % ${V}::int), 'Video', 1500, 1500 from generate_series(1, ${P}::int) i`);
await db.execute(sql`
  insert into search_misses (day, source, showcase_id, query, count)
  select current_date - d, (array['library', 'programme'])[1 + q % 2],
    case when q % 2 = 0 then 's' || (1 + q % ${S}::int) end, 'query ' || q, 1 + q % 5
  from generate_series(0, 89) d, generate_series(1, 300) q`);
await db.execute(sql`vacuum analyze`);
console.info(`seeded in ${Math.round(performance.now() - started)} ms`);

const times: number[] = [];
await seasonView(db, 's1'); // warm
for (let run = 0; run < flags.runs; run++) {
  const start = performance.now();
  await seasonView(db, 's1');
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
const view = await seasonView(db, 's1');

const log = searchMissLog({ db, logger: createLogger({ name: 'bench', level: 'warn' }) });
const logStart = performance.now();
for (let i = 0; i < 1_000; i++) log({ source: 'library', showcaseId: 's1', text: `nothing ${i % 200}` });
await searchMissesWritten(db);
const logMs = performance.now() - logStart;

console.info(
  `season view of a showcase with ${view.videos.total} videos, ${view.entries.total} entries, ` +
    `${view.sales.purchases} paid purchases, ${view.searchMisses.length} searches listed ` +
    `(library: ${V} videos, ${S * E} entries, ${P} checkouts)`,
);
console.info(
  `season view: median ${median.toFixed(1)} ms, slowest ${times.at(-1)!.toFixed(1)} ms over ${flags.runs} runs ` +
    `(target <= ${TARGET_MS} ms median) ${median <= TARGET_MS ? 'OK' : 'MISSED'}; load average ${loadavg()[0]!.toFixed(1)}`,
);
console.info(`search log: 1,000 misses (200 distinct) logged and written in ${logMs.toFixed(1)} ms`);
await pool.end();
if (flags.keep) {
  console.info(`kept ${database} (--keep 1) for EXPLAIN`);
  process.exit(0);
}
const cleanup = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
await cleanup.connect();
await cleanup.query(`drop database if exists "${database}" with (force)`);
await cleanup.end();
process.exit(median <= TARGET_MS ? 0 : 1);
