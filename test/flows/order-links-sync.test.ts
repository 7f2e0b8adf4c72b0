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
import { describe, expect, it } from 'vitest';
import { events, syncRuns } from '@app/shared/db';
import { SYNC_JOB_ID } from '@app/shared/queue';
import { syncRunsResponseSchema, syncStartedSchema } from '@app/shared/schemas';
import { createTestEnv, type TestEnv } from '../support/test-env.ts';
import { adminAgent, createTestApp } from '../support/app.ts';
import { drain, startTestWorker, type TestWorker } from '../support/worker.ts';
import { startFakeSheets } from '../support/fake-sheets.ts';
import { useTestWorld } from '../support/world.ts';
import { expectErrorLogs } from '../support/guards.ts';

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
const updatedAt = async (env: TestEnv) =>
  (await env.database.db.select().from(events).orderBy(asc(events.id))).map((event) =>
    event.updatedAt.getTime(),
  );
const latestRun = async (env: TestEnv) =>
  (await env.database.db.select().from(syncRuns).orderBy(desc(syncRuns.id)).limit(1))[0];

/**
 * Waits until the sync job has ended (it is removed then), moving a retry's backoff along
 * so tests do not sit out the 5 s delay.
 */
async function settle(worker: TestWorker, timeoutMs = 30_000) {
  const queue = worker.producer.queue('sync-order-links');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.getJob(SYNC_JOB_ID);
    if (!job) return;
    if ((await job.getState()) === 'delayed') await job.promote().catch(() => {});
    if (Date.now() > deadline) throw new Error('the sync did not end');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function syncNow(agent: Awaited<ReturnType<typeof adminAgent>>, worker: TestWorker) {
  const response = await agent.post('/api/sync-order-links').set('Origin', origin).expect(202);
  expect(syncStartedSchema.parse(response.body)).toEqual({ jobId: SYNC_JOB_ID, queue: 'sync-order-links' });
  await settle(worker);
}

// Most of this file makes syncs fail on purpose; the worker logs each failed sync at error level.
expectErrorLogs(/"job":"sync-order-links"/);

describe('sync from Google Sheets with an API key', () => {
  const { sheets, env, api, worker, agent } = useTestWorld({
    sheets: { spreadsheetIds: ['sheet-1'] },
    env: { GOOGLE_SHEET_ID: 'sheet-1' },
    seed: seedEvents,
    admin: true,
    worker: true,
  });

  it('writes changed links, reports unmatched and invalid rows, and records the run', async () => {
    sheets.values = [
      header,
      ['canterbury  dance festival', '1 Mar', 'https://form.example/canterbury'],
      ['Wellington Jazz & Tap', '2 Mar', 'https://form.example/old'],
      ['Nelson Champs', '3 Mar', 'https://form.example/nelson'],
      ['Auckland Cup', '4 Mar', 'not a link'],
    ];
    const before = await updatedAt(env);
    await syncNow(agent, worker);
    expect(await links(env)).toEqual({
      'Canterbury Dance Festival': 'https://form.example/canterbury',
      'Wellington Jazz & Tap': 'https://form.example/old',
      'Auckland Cup': null,
    });
    // Only the changed event was written.
    const after = await updatedAt(env);
    expect(after.map((time, index) => time !== before[index])).toEqual([true, false, false]);
    const run = await latestRun(env);
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'admin', failureReason: null });
    expect(run!.result).toEqual({
      updatedCount: 1,
      unchanged: 1,
      unmatchedRows: [{ row: 4, name: 'Nelson Champs' }],
      invalidRows: [{ row: 5, name: 'Auckland Cup', link: 'not a link', reason: 'not an http(s) link' }],
      ambiguousRows: [],
    });
    expect(sheets.requests.at(-1)).toEqual({
      path: '/v4/spreadsheets/sheet-1/values/A%3AC',
      auth: 'key',
      range: 'A:C',
    });

    // Run again: nothing left to change, nothing written.
    await syncNow(agent, worker);
    expect((await latestRun(env))!.result).toMatchObject({ updatedCount: 0, unchanged: 2 });
    expect(await updatedAt(env)).toEqual(after);

    const status = syncRunsResponseSchema.parse((await agent.get('/api/admin/sync-runs').expect(200)).body);
    expect(status).toMatchObject({ configured: true, running: false, progress: null, job: null });
    expect(status.runs.map((entry) => [entry.trigger, entry.status, entry.result?.updatedCount])).toEqual([
      ['admin', 'succeeded', 0],
      ['admin', 'succeeded', 1],
    ]);
    expect(status.runs[1]).toMatchObject({
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      finishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      result: { unmatchedRows: [{ row: 4, name: 'Nelson Champs' }] },
    });
  });

  it('shows a sync while it runs, with its job and progress', async () => {
    sheets.values = [header];
    sheets.delayMs = 1_500;
    try {
      await agent.post('/api/sync-order-links').set('Origin', origin).expect(202);
      await expect
        .poll(
          async () => syncRunsResponseSchema.parse((await agent.get('/api/admin/sync-runs')).body).job?.state,
        )
        .toBe('active');
      const running = syncRunsResponseSchema.parse((await agent.get('/api/admin/sync-runs')).body);
      expect(running).toMatchObject({
        running: true,
        progress: 10,
        job: { jobId: SYNC_JOB_ID, queue: 'sync-order-links', state: 'active' },
      });
      expect(running.runs[0]).toMatchObject({ status: 'running', finishedAt: null, result: null });
      // A press while it runs joins it.
      const again = await agent.post('/api/sync-order-links').set('Origin', origin).expect(202);
      expect(syncStartedSchema.parse(again.body)).toEqual({ jobId: SYNC_JOB_ID, queue: 'sync-order-links' });
      await settle(worker);
    } finally {
      sheets.delayMs = 0;
    }
    const done = syncRunsResponseSchema.parse((await agent.get('/api/admin/sync-runs')).body);
    expect(done).toMatchObject({ running: false, job: null });
    expect(done.runs[0]).toMatchObject({ status: 'succeeded' });
    expect(done.runs[1]!.status).toBe('succeeded');
  });

  for (const transient of [500, 429, 'reset'] as const) {
    it(`retries after ${transient === 'reset' ? 'a dropped connection' : `a ${transient}`} and then succeeds`, async () => {
      const link = `https://form.example/auckland-${transient}`;
      sheets.values = [header, ['Auckland Cup', '', link]];
      const requestsBefore = sheets.requests.length;
      sheets.failNext(transient, 1);
      await syncNow(agent, worker);
      expect((await links(env))['Auckland Cup']).toBe(link);
      expect(sheets.requests.length - requestsBefore).toBe(2);
      expect(await latestRun(env)).toMatchObject({
        status: 'succeeded',
        failureReason: null,
        result: { updatedCount: 1 },
      });
    });
  }

  it('records the attempts and fails when Google stays down', async () => {
    const before = await links(env);
    sheets.values = [header, ['Auckland Cup', '', 'https://form.example/never']];
    const requestsBefore = sheets.requests.length;
    sheets.failNext(503, 5);
    await syncNow(agent, worker);
    expect(sheets.requests.length - requestsBefore).toBe(5);
    expect(await links(env)).toEqual(before);
    const run = await latestRun(env);
    expect(run).toMatchObject({ status: 'failed' });
    expect(run!.failureReason).toMatch(/could not be read \(503\)/);
  });

  it('fails at once on a 403, leaving every event as it was', async () => {
    const before = await links(env);
    sheets.values = [header, ['Auckland Cup', '', 'https://form.example/changed']];
    const requestsBefore = sheets.requests.length;
    sheets.failNext(403, 1);
    await syncNow(agent, worker);
    expect(sheets.requests.length - requestsBefore).toBe(1);
    expect(await links(env)).toEqual(before);
    const run = await latestRun(env);
    expect(run).toMatchObject({ status: 'failed', result: null });
    expect(run!.failureReason).toMatch(/refused the request \(403\)/);
    const status = syncRunsResponseSchema.parse((await agent.get('/api/admin/sync-runs')).body);
    expect(status.runs[0]).toMatchObject({ status: 'failed', failureReason: run!.failureReason });
  });

  it('is for the owner only', async () => {
    await request(api.app).post('/api/sync-order-links').set('Origin', origin).expect(401);
    await request(api.app).get('/api/admin/sync-runs').expect(401);
  });

  it('runs one sync when the button is pressed twice at once', async () => {
    sheets.values = [header];
    const runsBefore = await env.database.db.$count(syncRuns);
    // The sheet answers slowly, so the first press's sync has not ended when the second press is
    // handled, however busy the machine (a press after a sync has ended rightly starts another).
    sheets.delayMs = 1_500;
    try {
      const [first, second] = await Promise.all([
        agent.post('/api/sync-order-links').set('Origin', origin),
        agent.post('/api/sync-order-links').set('Origin', origin),
      ]);
      expect([first.status, second.status]).toEqual([202, 202]);
      expect(first.body).toEqual(second.body);
      await settle(worker);
    } finally {
      sheets.delayMs = 0;
    }
    expect(await env.database.db.$count(syncRuns)).toBe(runsBefore + 1);
    const state = await agent.get('/api/admin/sync-runs').expect(200);
    expect(state.body.running).toBe(false);
  });

  it('hands a scheduler tick over to the one sync job', async () => {
    sheets.values = [header];
    const runsBefore = await env.database.db.$count(syncRuns);
    // What a job scheduler adds: the same job name under an id of its own.
    await worker.producer
      .queue('sync-order-links')
      .add(
        'sync-order-links',
        { trigger: 'schedule' },
        { jobId: 'repeat-sync-test-1', removeOnComplete: true },
      );
    await expect.poll(() => env.database.db.$count(syncRuns)).toBe(runsBefore + 1);
    await drain(worker.producer, 'sync-order-links');
    await settle(worker);
    expect(await latestRun(env)).toMatchObject({
      trigger: 'schedule',
      status: 'succeeded',
      jobId: expect.stringMatching(/^sync-order-links-/),
    });
  });

  it('marks a run cut short by a crashed worker as failed when the next one starts', async () => {
    const [stale] = await env.database.db
      .insert(syncRuns)
      .values({ jobId: 'sync-order-links-1', trigger: 'cli' })
      .returning();
    sheets.values = [header];
    await syncNow(agent, worker);
    const runs = await env.database.db.select().from(syncRuns).orderBy(desc(syncRuns.id)).limit(2);
    expect(runs[0]).toMatchObject({ status: 'succeeded' });
    expect(runs[1]).toMatchObject({
      id: stale!.id,
      status: 'failed',
      failureReason: expect.stringMatching(/Interrupted/),
    });
  });
});

describe('permanent failures of a sheet', () => {
  it('fails at once on an unknown sheet (404) or a bad range (400), events untouched', async () => {
    const sheets = await startFakeSheets({ spreadsheetIds: ['sheet-1'] });
    sheets.values = [header, ['Auckland Cup', '', 'https://form.example/changed']];
    for (const [overrides, reason] of [
      [{ GOOGLE_SHEET_ID: 'no-such-sheet' }, /\(404\).*no sheet with GOOGLE_SHEET_ID/],
      [
        { GOOGLE_SHEET_ID: 'sheet-1', GOOGLE_SHEET_RANGE: 'Nowhere!A:C' },
        /\(400\).*check GOOGLE_SHEET_RANGE/,
      ],
    ] as const) {
      const env = await createTestEnv({
        GOOGLE_API_KEY: sheets.apiKey,
        GOOGLE_API_URL: sheets.url,
        ...overrides,
      });
      const worker = startTestWorker(env);
      try {
        await seedEvents(env);
        const before = await links(env);
        const requestsBefore = sheets.requests.length;
        await worker.producer.enqueue('sync-order-links', { trigger: 'cli' });
        await settle(worker);
        expect(sheets.requests.length - requestsBefore).toBe(1);
        expect(await links(env)).toEqual(before);
        const run = await latestRun(env);
        expect(run).toMatchObject({ status: 'failed', trigger: 'cli' });
        expect(run!.failureReason).toMatch(reason);
      } finally {
        await worker.close();
        await env.cleanup();
      }
    }
    await sheets.close();
  });
});

describe('sync with a service account, from a CSV, and unconfigured', () => {
  it('reads the sheet with a self-signed service-account token', async () => {
    const email = 'sync@stagelight-test.iam.gserviceaccount.com';
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const sheets = await startFakeSheets({ serviceAccount: { email, publicKey } });
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
      await settle(worker);
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
      expect(JSON.parse(printed.stdout)).toMatchObject({ updatedCount: 1, unchanged: 0 });
      expect((await links(fromFile))['Auckland Cup']).toBe('https://form.example/csv');
      expect(await latestRun(fromFile)).toMatchObject({ trigger: 'cli', status: 'succeeded' });

      // --no-wait: queued, the job printed, the sync still happens.
      const queued = await run(fromUrl, ['--no-wait']);
      expect(JSON.parse(queued.stdout)).toEqual({ jobId: SYNC_JOB_ID, queue: 'sync-order-links' });
      await settle(workers[1]!);
      expect((await links(fromUrl))['Canterbury Dance Festival']).toBe('https://form.example/from-url');

      // A broken source: the CLI exits 1 with the reason.
      await writeFile(file, '"unterminated');
      const failed = await run(fromFile).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(JSON.parse(failed!.stderr)).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(/not valid CSV/),
      });
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([fromFile.cleanup(), fromUrl.cleanup()]);
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers 409, and the CLI exits 2, when neither a sheet nor a CSV is configured', async () => {
    const env = await createTestEnv();
    const api = createTestApp(env);
    try {
      const agent = await adminAgent(api.app);
      const response = await agent.post('/api/sync-order-links').set('Origin', origin).expect(409);
      expect(response.body.message).toMatch(/not set up/);
      const status = syncRunsResponseSchema.parse((await agent.get('/api/admin/sync-runs').expect(200)).body);
      expect(status).toEqual({ configured: false, running: false, progress: null, job: null, runs: [] });

      const cli = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/sync-order-links.ts'],
        {
          env: { ...process.env, ...env.env },
        },
      ).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(cli?.code).toBe(2);
      expect(cli?.stderr).toMatch(/not set up/);
    } finally {
      await api.close();
      await env.cleanup();
    }
  });

  it('fails a queued sync at once when the source has been unset', async () => {
    const env = await createTestEnv();
    const worker = startTestWorker(env);
    try {
      await worker.producer.enqueue('sync-order-links', { trigger: 'schedule' });
      await settle(worker);
      const run = await latestRun(env);
      expect(run).toMatchObject({ status: 'failed', trigger: 'schedule' });
      expect(run!.failureReason).toMatch(/No order-link source is configured/);
    } finally {
      await worker.close();
      await env.cleanup();
    }
  });
});
