import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, desc } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, syncRuns } from '@app/shared/db';
import { createTestEnv, type TestEnv } from '../../../test/support/test-env.ts';
import { adminAgent, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { drain, startTestWorker, type TestWorker } from '../../../test/support/worker.ts';
import { startFakeSheets, type FakeSheets } from '../../../test/support/fake-sheets.ts';

const origin = 'http://localhost:3000';
const header = ['Competition', 'Date', 'Order link'];

async function seedEvents(env: TestEnv) {
  const base = {
    description: 'd',
    date: '2027-03-01',
    location: 'l',
    eventType: 'competition',
    imageUrl: '/x.jpg',
  };
  await env.database.db.insert(events).values([
    { ...base, title: 'Canterbury Dance Festival' },
    { ...base, title: 'Wellington Jazz & Tap', jotformUrl: 'https://form.example/old' },
    { ...base, title: 'Auckland Cup' },
  ]);
}
const links = async (env: TestEnv) =>
  Object.fromEntries(
    (await env.database.db.select().from(events).orderBy(asc(events.id))).map((event) => [
      event.title,
      event.jotformUrl,
    ]),
  );
const latestRun = async (env: TestEnv) =>
  (await env.database.db.select().from(syncRuns).orderBy(desc(syncRuns.id)).limit(1))[0];

async function syncNow(agent: Awaited<ReturnType<typeof adminAgent>>, worker: TestWorker) {
  const response = await agent.post('/api/sync-order-links').set('Origin', origin).expect(202);
  expect(response.body).toEqual({ jobId: 'sync-order-links', queue: 'sync-order-links' });
  await drain(worker.producer, 'sync-order-links', 60_000);
}

describe('sync from Google Sheets with an API key', () => {
  let sheets: FakeSheets;
  let env: TestEnv;
  let api: TestApp;
  let worker: TestWorker;
  let agent: Awaited<ReturnType<typeof adminAgent>>;

  beforeAll(async () => {
    sheets = await startFakeSheets();
    env = await createTestEnv({
      GOOGLE_SHEET_ID: 'sheet-1',
      GOOGLE_API_KEY: sheets.apiKey,
      GOOGLE_API_URL: sheets.url,
    });
    await seedEvents(env);
    api = createTestApp(env);
    agent = await adminAgent(api.app);
    worker = startTestWorker(env);
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await env.cleanup();
    await sheets.close();
  });

  it('writes changed links, reports unmatched and invalid rows, and records the run', async () => {
    sheets.values = [
      header,
      ['canterbury  dance festival', '1 Mar', 'https://form.example/canterbury'],
      ['Wellington Jazz & Tap', '2 Mar', 'https://form.example/old'],
      ['Nelson Champs', '3 Mar', 'https://form.example/nelson'],
      ['Auckland Cup', '4 Mar', 'not a link'],
    ];
    await syncNow(agent, worker);
    expect(await links(env)).toEqual({
      'Canterbury Dance Festival': 'https://form.example/canterbury',
      'Wellington Jazz & Tap': 'https://form.example/old',
      'Auckland Cup': null,
    });
    const run = await latestRun(env);
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'admin' });
    expect(run!.result).toMatchObject({
      updatedCount: 1,
      unchanged: 1,
      unmatchedRows: [{ row: 4, name: 'Nelson Champs' }],
      invalidRows: [{ row: 5, name: 'Auckland Cup', link: 'not a link', reason: 'not an http(s) link' }],
    });
    expect(sheets.requests.at(-1)).toEqual({ path: '/v4/spreadsheets/sheet-1/values/A%3AC', auth: 'key' });

    // Run again: nothing left to change.
    await syncNow(agent, worker);
    expect((await latestRun(env))!.result).toMatchObject({ updatedCount: 0, unchanged: 2 });
    const runs = await agent.get('/api/admin/sync-runs').expect(200);
    expect(runs.body.configured).toBe(true);
    expect(runs.body.runs.length).toBe(2);
  });

  it('retries a 500 from Google and then succeeds', { timeout: 60_000 }, async () => {
    sheets.values = [header, ['Auckland Cup', '', 'https://form.example/auckland']];
    sheets.failNext(500, 1);
    await syncNow(agent, worker);
    expect((await links(env))['Auckland Cup']).toBe('https://form.example/auckland');
    expect(await latestRun(env)).toMatchObject({ status: 'succeeded' });
  });

  it('fails at once on a 403, leaving every event as it was', async () => {
    const before = await links(env);
    sheets.values = [header, ['Auckland Cup', '', 'https://form.example/changed']];
    sheets.failNext(403, 1);
    await syncNow(agent, worker);
    expect(await links(env)).toEqual(before);
    const run = await latestRun(env);
    expect(run).toMatchObject({ status: 'failed' });
    expect(run!.failureReason).toMatch(/refused the request \(403\)/);
  });

  it('runs one sync when the button is pressed twice at once', async () => {
    sheets.values = [header];
    const runsBefore = await env.database.db.$count(syncRuns);
    const [first, second] = await Promise.all([
      agent.post('/api/sync-order-links').set('Origin', origin),
      agent.post('/api/sync-order-links').set('Origin', origin),
    ]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body).toEqual(second.body);
    await drain(worker.producer, 'sync-order-links', 30_000);
    expect(await env.database.db.$count(syncRuns)).toBe(runsBefore + 1);
    const state = await agent.get('/api/admin/sync-runs').expect(200);
    expect(state.body.running).toBe(false);
  });

  it('is for the owner only', async () => {
    await request(api.app).post('/api/sync-order-links').set('Origin', origin).expect(401);
    await request(api.app).get('/api/admin/sync-runs').expect(401);
  });
});

describe('sync with a service account, from a CSV, and unconfigured', () => {
  it('reads the sheet with a self-signed service-account token', async () => {
    const email = 'sync@stagelight-test.iam.gserviceaccount.com';
    const sheets = await startFakeSheets({ serviceAccountEmail: email });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const env = await createTestEnv({
      GOOGLE_SHEET_ID: 'sheet-2',
      GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify({
        client_email: email,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      }),
      GOOGLE_API_URL: sheets.url,
    });
    await seedEvents(env);
    const worker = startTestWorker(env);
    try {
      sheets.values = [header, ['Auckland Cup', '', 'https://form.example/sa']];
      await worker.producer.enqueue('sync-order-links', { trigger: 'schedule' });
      await drain(worker.producer, 'sync-order-links', 30_000);
      expect((await links(env))['Auckland Cup']).toBe('https://form.example/sa');
      expect(sheets.requests.at(-1)?.auth).toBe('jwt');
    } finally {
      await worker.close();
      await env.cleanup();
      await sheets.close();
    }
  });

  it('reads a CSV file and a CSV URL, and the CLI reports the result', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-csv-'));
    const file = path.join(dir, 'links.csv');
    await writeFile(file, 'Competition,Date,Order link\n"Auckland Cup",x,https://form.example/csv\n');
    const server = http.createServer((_req, res) =>
      res.end('Competition,Date,Order link\nCanterbury Dance Festival,x,https://form.example/from-url\n'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const csvUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/links.csv`;

    const fromFile = await createTestEnv({ ORDER_LINKS_CSV: file });
    const fromUrl = await createTestEnv({ ORDER_LINKS_CSV: csvUrl });
    const workers = [startTestWorker(fromFile), startTestWorker(fromUrl)];
    try {
      await Promise.all([seedEvents(fromFile), seedEvents(fromUrl)]);
      const run = (env: TestEnv, args: string[] = []) =>
        promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/sync-order-links.ts', ...args], {
          env: { ...process.env, ...env.env },
        });
      const printed = await run(fromFile);
      expect(JSON.parse(printed.stdout)).toMatchObject({ updatedCount: 1 });
      expect((await links(fromFile))['Auckland Cup']).toBe('https://form.example/csv');

      await workers[1]!.producer.enqueue('sync-order-links', { trigger: 'cli' });
      await drain(workers[1]!.producer, 'sync-order-links', 30_000);
      expect((await links(fromUrl))['Canterbury Dance Festival']).toBe('https://form.example/from-url');

      // A broken source: the CLI exits non-zero with the reason.
      await writeFile(file, '"unterminated');
      await expect(run(fromFile)).rejects.toMatchObject({ code: 1 });
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([fromFile.cleanup(), fromUrl.cleanup()]);
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers 409 when neither a sheet nor a CSV is configured', async () => {
    const env = await createTestEnv();
    const api = createTestApp(env);
    try {
      const agent = await adminAgent(api.app);
      const response = await agent.post('/api/sync-order-links').set('Origin', origin).expect(409);
      expect(response.body.message).toMatch(/not set up/);
    } finally {
      await api.close();
      await env.cleanup();
    }
  });
});
