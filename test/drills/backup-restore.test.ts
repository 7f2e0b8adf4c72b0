// Drill: back up a shop with a paid purchase and a contact, restore the archive into a new database
// and storage folder, start the api on them: every table holds the same rows and the buyer's
// download gives the same bytes.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerSessions, buyerSignInLinks, contacts, sales, sessions } from '@app/shared/db';
import { createStorage } from '@app/shared/storage';
import { countRows } from '../../scripts/backup/common.ts';
import { startApi, type RunningApi } from '../support/processes.ts';
import { databaseUrl, TEST_DATABASE_ADMIN_URL, TEST_DATABASE_PREFIX } from '../support/services.ts';
import { createPurchase, createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs an npm script's entry (scripts/<name>.ts) with `env`; resolves with its exit code and output. */
function runScript(name: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function tableCounts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await countRows(client);
  } finally {
    await client.end();
  }
}

const { env } = useTestWorld();
let backups: string;
let tools: string;
let restoredStorage: string;
const restoredDatabase = `${TEST_DATABASE_PREFIX}restore_${randomBytes(4).toString('hex')}`;
let api: RunningApi | undefined;

beforeAll(async () => {
  backups = await mkdtemp(path.join(os.tmpdir(), 'stagelight-backups-'));
  // A pg_dump that notes its arguments and whether it got a password, then runs the real one.
  tools = await mkdtemp(path.join(os.tmpdir(), 'stagelight-tools-'));
  const real = execFileSync('sh', ['-c', 'command -v pg_dump'], { encoding: 'utf8' }).trim();
  await writeFile(
    path.join(tools, 'pg_dump'),
    `#!/bin/sh\necho "$*" > "${tools}/pg_dump.seen"\necho "PGPASSWORD=$PGPASSWORD" >> "${tools}/pg_dump.seen"\nexec ${real} "$@"\n`,
    { mode: 0o755 },
  );
  restoredStorage = await mkdtemp(path.join(os.tmpdir(), 'stagelight-restored-'));
});
afterAll(async () => {
  await api?.stop('SIGKILL');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${restoredDatabase}" with (force)`);
  await admin.end();
  await rm(backups, { recursive: true, force: true });
  await rm(tools, { recursive: true, force: true });
  await rm(restoredStorage, { recursive: true, force: true });
});

describe('npm run backup, then npm run restore', () => {
  it('brings back every row and file', { timeout: 180_000 }, async () => {
    const seeded = await runScript('seed', [], env.env);
    expect(seeded.code, seeded.output).toBe(0);
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const key = `videos/${randomUUID()}-paid-recital.mp4`;
    await createStorage(env.config).put(key, bytes, 'video/mp4');
    const video = await createVideo(env.database.db, { awsKey: key, priceCents: 2500 });
    const purchase = await createPurchase(env.database.db, {
      videoId: video.id,
      status: 'paid',
      paidAt: new Date(),
      paymentIntentId: `pi_${randomUUID().replaceAll('-', '')}`,
    });
    await env.database.db.insert(sales).values({
      videoId: video.id,
      purchaseId: purchase.id,
      amountCents: 2500,
      currency: 'nzd',
      customerEmail: purchase.buyerEmail,
      transactionId: purchase.paymentIntentId!,
    });
    await env.database.db.insert(contacts).values({
      firstName: 'Aroha',
      lastName: 'Backup',
      email: 'aroha@example.nz',
      eventType: 'recital',
      message: 'Please film our recital',
    });
    expect(await tableCounts(env.config.DATABASE_URL)).toMatchObject({ purchases: 1, sales: 1, contacts: 1 });

    // Live keys to the site: the owner's session, a buyer's session and a sign-in link.
    await env.database.db.insert(sessions).values({
      sid: 'live-admin-session-id',
      sess: { admin: true, cookie: {} },
      expire: new Date(Date.now() + 3600_000),
    });
    await env.database.db.insert(buyerSessions).values({
      idHash: 'live-buyer-session-hash',
      email: 'aroha@example.nz',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await env.database.db.insert(buyerSignInLinks).values({
      email: 'aroha@example.nz',
      tokenHash: 'live-sign-in-token-hash',
      expiresAt: new Date(Date.now() + 1800_000),
    });
    const counts = await tableCounts(env.config.DATABASE_URL);
    expect(counts).toMatchObject({ sessions: 1, buyer_sessions: 1, buyer_sign_in_links: 1 });

    // pg_dump as the backup runs it, seen through a wrapper: the password never on its command line.
    const url = new URL(env.config.DATABASE_URL);
    url.password = 'drill-secret-password';
    const backup = await runScript('backup', ['--out', backups], {
      ...env.env,
      DATABASE_URL: url.toString(),
      PATH: `${tools}:${process.env.PATH}`,
    });
    expect(backup.code, backup.output).toBe(0);
    const seen = await readFile(path.join(tools, 'pg_dump.seen'), 'utf8');
    expect(seen).toContain('--dbname=');
    expect(seen.split('\n')[0]).not.toContain('drill-secret-password');
    expect(seen).toContain('PGPASSWORD=drill-secret-password');

    const [archive, ...others] = await readdir(backups);
    expect(others).toEqual([]);
    expect(archive).toMatch(/^stagelight-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar$/);
    // Readable by its owner only, and without the sessions' rows.
    expect((await stat(path.join(backups, archive!))).mode & 0o777).toBe(0o600);
    const secretsLeft = { sessions: 0, buyer_sessions: 0, buyer_sign_in_links: 0 };
    // The dump as SQL (its custom format is compressed): the rows it would restore.
    const unpacked = await mkdtemp(path.join(os.tmpdir(), 'stagelight-unpacked-'));
    execFileSync('tar', [
      '--extract',
      `--file=${path.join(backups, archive!)}`,
      `--directory=${unpacked}`,
      'database.dump',
    ]);
    const dumped = execFileSync(
      'pg_restore',
      ['--data-only', '--file=-', path.join(unpacked, 'database.dump')],
      {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    await rm(unpacked, { recursive: true, force: true });
    expect(dumped).toContain('aroha@example.nz');
    for (const secret of ['live-admin-session-id', 'live-buyer-session-hash', 'live-sign-in-token-hash'])
      expect(dumped.includes(secret), secret).toBe(false);

    const target = { ...env.env, DATABASE_URL: databaseUrl(restoredDatabase), STORAGE_DIR: restoredStorage };
    const restore = await runScript('restore', [path.join(backups, archive!)], target);
    expect(restore.code, restore.output).toBe(0);
    expect(await tableCounts(target.DATABASE_URL)).toEqual({ ...counts, ...secretsLeft });

    // Restoring over what is now there is refused, unless told.
    const again = await runScript('restore', [path.join(backups, archive!)], target);
    expect(again.code).toBe(2);
    expect(again.output).toMatch(/database already holds tables .* and the storage folder .* is not empty/);
    const forced = await runScript('restore', [path.join(backups, archive!), '--force'], target);
    expect(forced.code, forced.output).toBe(0);
    expect(await tableCounts(target.DATABASE_URL)).toEqual({ ...counts, ...secretsLeft });

    api = await startApi(target);
    const link = await fetch(`${api.url}/api/download/${video.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ sessionId: purchase.checkoutSessionId }),
    });
    expect(link.status).toBe(200);
    const { downloadUrl } = (await link.json()) as { downloadUrl: string };
    const download = await fetch(downloadUrl);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    // The next night's backup with --keep 1 leaves only itself.
    const next = await runScript('backup', ['--out', backups, '--keep', '1'], env.env);
    expect(next.code, next.output).toBe(0);
    const kept = await readdir(backups);
    expect(kept).toHaveLength(1);
    expect(kept[0]! > archive!).toBe(true);
  });
});
