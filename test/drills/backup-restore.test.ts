// Drill: back up a shop with a paid purchase and a contact, restore the archive into a new database
// and storage folder, start the api on them: every table holds the same rows and the buyer's
// download gives the same bytes.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, sales } from '@app/shared/db';
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
let restoredStorage: string;
const restoredDatabase = `${TEST_DATABASE_PREFIX}restore_${randomBytes(4).toString('hex')}`;
let api: RunningApi | undefined;

beforeAll(async () => {
  backups = await mkdtemp(path.join(os.tmpdir(), 'stagelight-backups-'));
  restoredStorage = await mkdtemp(path.join(os.tmpdir(), 'stagelight-restored-'));
});
afterAll(async () => {
  await api?.stop('SIGKILL');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${restoredDatabase}" with (force)`);
  await admin.end();
  await rm(backups, { recursive: true, force: true });
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
    const counts = await tableCounts(env.config.DATABASE_URL);
    expect(counts).toMatchObject({ purchases: 1, sales: 1, contacts: 1 });
    expect(counts.videos).toBeGreaterThan(1);

    const backup = await runScript('backup', ['--out', backups], env.env);
    expect(backup.code, backup.output).toBe(0);
    const [archive, ...others] = await readdir(backups);
    expect(others).toEqual([]);
    expect(archive).toMatch(/^stagelight-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar$/);

    const target = { ...env.env, DATABASE_URL: databaseUrl(restoredDatabase), STORAGE_DIR: restoredStorage };
    const restore = await runScript('restore', [path.join(backups, archive!)], target);
    expect(restore.code, restore.output).toBe(0);
    expect(await tableCounts(target.DATABASE_URL)).toEqual(counts);

    // Restoring over what is now there is refused, unless told.
    const again = await runScript('restore', [path.join(backups, archive!)], target);
    expect(again.code).toBe(2);
    expect(again.output).toMatch(/database already holds tables .* and the storage folder .* is not empty/);
    const forced = await runScript('restore', [path.join(backups, archive!), '--force'], target);
    expect(forced.code, forced.output).toBe(0);
    expect(await tableCounts(target.DATABASE_URL)).toEqual(counts);

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
