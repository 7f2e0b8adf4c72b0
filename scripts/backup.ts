// npm run backup [-- --out <folder>] [--keep <n>]
// One dated archive of the database (pg_dump, custom format) and, with the local storage driver, the
// storage folder: <folder>/stagelight-<UTC date and time>.tar (default folder data/backups). With
// --keep, only the newest n archives of the folder are kept. Restore with `npm run restore -- <archive>`.
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '@app/shared/config';
import { loadDotEnv } from './lib.mjs';
import {
  ARCHIVE_PATTERN,
  countRows,
  DUMP,
  MANIFEST,
  option,
  runTool,
  SECRET_TABLES,
  STORAGE,
  toolConnection,
  type Manifest,
} from './backup/common.ts';

async function folderSize(folder: string): Promise<{ files: number; bytes: number }> {
  const total = { files: 0, bytes: 0 };
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || skipped(path.relative(folder, file))) continue;
    total.files++;
    total.bytes += (await stat(file)).size;
  }
  return total;
}

/** Multipart uploads in progress and half-written files are not part of what storage holds. */
const skipped = (relative: string) =>
  relative.split(path.sep)[0] === '.uploads' || relative.endsWith('.partial');

loadDotEnv();
// The archive holds every buyer's name and e-mail: only this user may read what is written here.
process.umask(0o077);
const config = loadConfig();
const args = process.argv.slice(2);
const outFolder = path.resolve(option(args, '--out') ?? 'data/backups');
const keep = option(args, '--keep');
if (keep !== undefined && !(Number.isInteger(Number(keep)) && Number(keep) >= 1)) {
  console.error('--keep takes a whole number of archives, at least 1');
  process.exit(2);
}

const createdAt = new Date();
const archive = path.join(
  outFolder,
  `stagelight-${createdAt.toISOString().slice(0, 19).replaceAll(':', '-')}Z.tar`,
);
const staging = await mkdtemp(path.join(os.tmpdir(), 'stagelight-backup-'));
const client = new pg.Client({ connectionString: config.DATABASE_URL });
try {
  await mkdir(outFolder, { recursive: true });
  // The row counts and the dump read one snapshot, so the counts describe exactly what was dumped.
  await client.connect();
  await client.query('begin isolation level repeatable read read only');
  const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
  const tables = { ...(await countRows(client)) };
  for (const table of SECRET_TABLES) if (table in tables) tables[table] = 0;
  const connection = toolConnection(config.DATABASE_URL);
  await runTool(
    'pg_dump',
    [
      '--format=custom',
      `--snapshot=${rows[0]!.snapshot}`,
      `--file=${path.join(staging, DUMP)}`,
      ...SECRET_TABLES.map((table) => `--exclude-table-data=public.${table}`),
      `--dbname=${connection.dbname}`,
    ],
    connection.env,
  );
  await client.query('commit');

  // After the dump: a file uploaded meanwhile is kept without its row, never a row without its file
  // (except for a video deleted in between).
  const local = config.STORAGE_DRIVER === 'local';
  const storageDir = path.resolve(config.STORAGE_DIR);
  const manifest: Manifest = {
    format: 1,
    createdAt: createdAt.toISOString(),
    storageDriver: config.STORAGE_DRIVER,
    tables,
    storage: local ? await folderSize(storageDir) : null,
  };
  await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const members = [MANIFEST, DUMP];
  if (local) {
    await mkdir(storageDir, { recursive: true });
    await symlink(storageDir, path.join(staging, STORAGE));
    members.push(`${STORAGE}/`);
  }
  const partial = `${archive}.partial`;
  await runTool('tar', [
    '--create',
    `--file=${partial}`,
    `--directory=${staging}`,
    // Follows the storage link itself; the storage folder holds no links of its own.
    '--dereference',
    `--exclude=${STORAGE}/.uploads`,
    '--exclude=*.partial',
    ...members,
  ]);
  await chmod(partial, 0o600);
  await runTool('mv', [partial, archive]);
  const size = (await stat(archive)).size;
  const rowsTotal = Object.values(tables).reduce((sum, count) => sum + count, 0);
  console.info(
    `Backed up ${Object.keys(tables).length} tables (${rowsTotal} rows)` +
      (manifest.storage ? ` and ${manifest.storage.files} files (${manifest.storage.bytes} bytes)` : '') +
      ` to ${archive} (${size} bytes).`,
  );
  if (!local) console.info('Files stay in the S3 bucket: its versioning keeps them (README, Backups).');

  if (keep !== undefined) {
    const archives = (await readdir(outFolder)).filter((name) => ARCHIVE_PATTERN.test(name)).sort();
    for (const old of archives.slice(0, -Number(keep))) {
      await rm(path.join(outFolder, old));
      console.info(`Removed the older archive ${old}.`);
    }
  }
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
  await rm(staging, { recursive: true, force: true });
}
