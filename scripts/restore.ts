// npm run restore -- <archive> [--force]
// Restores an archive of `npm run backup` into DATABASE_URL (created when missing) and, when it holds
// files, into STORAGE_DIR. Both must be empty: --force replaces what is there. Then checks every
// table's row count against the archive's manifest. Start the api afterwards (migrations newer than
// the backup are applied then).
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '@app/shared/config';
import { ensureDatabaseExists } from '@app/shared/db';
import { loadDotEnv } from './lib.mjs';
import {
  countRows,
  DUMP,
  MANIFEST,
  runTool,
  STORAGE,
  toolConnection,
  type Manifest,
} from './backup/common.ts';

class Refusal extends Error {}

loadDotEnv();
const config = loadConfig();
const args = process.argv.slice(2);
const force = args.includes('--force');
const archive = args.find((arg) => !arg.startsWith('--'));
if (!archive) {
  console.error('Usage: npm run restore -- <archive.tar> [--force]');
  process.exit(2);
}

const staging = await mkdtemp(path.join(os.tmpdir(), 'stagelight-restore-'));
let client: pg.Client | undefined;
try {
  await runTool('tar', [
    '--extract',
    `--file=${path.resolve(archive)}`,
    `--directory=${staging}`,
    MANIFEST,
    DUMP,
  ]);
  const manifest = JSON.parse(await readFile(path.join(staging, MANIFEST), 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new Refusal(`${archive} is not an archive this version can restore`);

  await ensureDatabaseExists(config.DATABASE_URL);
  client = new pg.Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  const { rows: existing } = await client.query<{ name: string }>(
    "select table_schema || '.' || table_name as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') limit 5",
  );
  const storageDir = path.resolve(config.STORAGE_DIR);
  const withFiles = manifest.storage !== null;
  const present = withFiles ? await readdir(storageDir).catch(() => [] as string[]) : [];
  if (!force && (existing.length > 0 || present.length > 0)) {
    throw new Refusal(
      [
        existing.length > 0 &&
          `the database already holds tables (${existing.map((row) => row.name).join(', ')})`,
        present.length > 0 && `the storage folder ${storageDir} is not empty`,
      ]
        .filter(Boolean)
        .join(' and ') + '. Restore into an empty one, or add --force to replace what is there.',
    );
  }

  if (existing.length > 0) {
    // --force: everything the application owns goes, so no table of a newer schema is left behind.
    await client.query(
      'drop schema if exists drizzle cascade; drop schema public cascade; create schema public;',
    );
  }
  const connection = toolConnection(config.DATABASE_URL);
  await runTool(
    'pg_restore',
    ['--exit-on-error', '--no-owner', `--dbname=${connection.dbname}`, path.join(staging, DUMP)],
    connection.env,
  );

  if (withFiles) {
    await rm(storageDir, { recursive: true, force: true });
    await mkdir(storageDir, { recursive: true });
    await runTool('tar', [
      '--extract',
      `--file=${path.resolve(archive)}`,
      `--directory=${storageDir}`,
      '--strip-components=1',
      `${STORAGE}/`,
    ]);
  }

  const restored = await countRows(client);
  const differences = Object.entries(manifest.tables)
    .filter(([table, count]) => restored[table] !== count)
    .map(([table, count]) => `${table}: ${restored[table] ?? 'missing'} rows, the backup had ${count}`);
  if (differences.length)
    throw new Error(`the restored database differs from the backup:\n${differences.join('\n')}`);
  const rowsTotal = Object.values(restored).reduce((sum, count) => sum + count, 0);
  console.info(
    `Restored ${Object.keys(restored).length} tables (${rowsTotal} rows, as in the backup of ${manifest.createdAt})` +
      (withFiles ? ` and ${manifest.storage!.files} files into ${storageDir}` : '') +
      '.',
  );
  if (!withFiles) console.info('The archive holds no files (S3 storage): they stay in the bucket.');
} catch (error) {
  console.error(`Restore ${error instanceof Refusal ? 'refused' : 'failed'}: ${(error as Error).message}`);
  process.exitCode = error instanceof Refusal ? 2 : 1;
} finally {
  await client?.end().catch(() => {});
  await rm(staging, { recursive: true, force: true });
}
