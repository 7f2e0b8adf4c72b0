// What `npm run backup` and `npm run restore` share: the archive's layout, its manifest, and the
// row counts that prove a restore complete.
import { spawn } from 'node:child_process';
import type pg from 'pg';

/**
 * An archive is a plain tar (the dump is compressed already, videos do not compress) holding
 * `manifest.json`, `database.dump` (pg_dump's custom format) and, for the local storage driver,
 * `storage/` (STORAGE_DIR's files).
 */
export const MANIFEST = 'manifest.json';
export const DUMP = 'database.dump';
export const STORAGE = 'storage';
export const ARCHIVE_PATTERN = /^stagelight-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar$/;

export interface Manifest {
  format: 1;
  createdAt: string;
  storageDriver: 'local' | 's3';
  /** Rows per table of the public schema, counted in the snapshot pg_dump read. */
  tables: Record<string, number>;
  /** Files and bytes of the storage folder (local driver only). */
  storage: { files: number; bytes: number } | null;
}

/** Rows of every table in the public schema, read through `client` (inside a snapshot if it holds one). */
export async function countRows(client: pg.ClientBase): Promise<Record<string, number>> {
  const { rows } = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows) {
    const result = await client.query<{ count: string }>(
      `select count(*) from "${name.replaceAll('"', '""')}"`,
    );
    counts[name] = Number(result.rows[0]!.count);
  }
  return counts;
}

/**
 * Tables left out of an archive's data (their definitions stay): live admin and buyer sessions and
 * sign-in links are keys to the site, worthless after a restore and dangerous in a copied archive.
 * A restored site starts with nobody signed in.
 */
export const SECRET_TABLES = ['sessions', 'buyer_sessions', 'buyer_sign_in_links'];

/**
 * How pg_dump and pg_restore reach a database: its URL without the password (a command line is
 * visible to every user of the machine in `ps`), the password through PGPASSWORD.
 */
export function toolConnection(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Runs a tool (pg_dump, pg_restore, tar), failing with its error output. */
export function runTool(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error) =>
      reject(new Error(`${command} could not be started (${error.message}); is it installed?`)),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}):\n${errors.trim()}`)),
    );
  });
}

/** `--name value` from the command line. */
export function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}
