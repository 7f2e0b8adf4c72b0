// Bench 2, counting: 10,000 views through the production api and worker, measured from the first
// request until the counter shows all of them, against BullMQ's own no-op rate in the same run. Then
// the counting stage alone: 10,000 more views already saved, as the api saves them, applied by the
// worker's coalesced job (the part the target's "coalescing increments" is about).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { createDatabase, videos, videoStatEvents } from '@app/shared/db';
import { createProducer, statBatch } from '@app/shared/queue';
import { startApi, startWorker } from '../test/support/processes.ts';
import { peakRssMb, prepareBenchEnv, printTable, verdict, workerIdle } from './lib.ts';

const EVENTS = 10_000;

async function noopJobsPerSecond(redisUrl: string, prefix: string): Promise<number> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('bench-noop', { connection, prefix });
  await queue.addBulk(Array.from({ length: EVENTS }, (_, index) => ({ name: 'noop', data: { index } })));
  const started = performance.now();
  let done = 0;
  // A worker leaves a connection it was given open on close; this one is closed below.
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  await new Promise<void>((resolve) => {
    const worker = new Worker('bench-noop', async () => undefined, {
      connection: workerConnection,
      prefix,
      concurrency: 50,
    });
    worker.on('completed', () => {
      if (++done === EVENTS) void worker.close().then(() => resolve());
    });
  });
  const rate = EVENTS / ((performance.now() - started) / 1000);
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  workerConnection.disconnect();
  return Math.round(rate);
}

/**
 * The framework's own ceiling, for reading the figure: Express 5 with nothing but express.json and
 * res.json, in its own process, under the same load. Every event is one such request at least.
 */
async function bareExpressRequestsPerSecond(): Promise<number> {
  const server = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import express from 'express';
       const app = express();
       app.post('/api/video-stream/:id', express.json(), (req, res) => res.json({ streamUrl: '/x', expiresInSeconds: 3600 }));
       const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
    ],
    { cwd: new URL('../api/', import.meta.url), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const [port] = (await once(server.stdout!, 'data')) as [Buffer];
    const started = performance.now();
    await autocannon({
      url: `http://127.0.0.1:${String(port).trim()}/api/video-stream/x`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      connections: 50,
      amount: EVENTS,
    });
    return Math.round(EVENTS / ((performance.now() - started) / 1000));
  } finally {
    server.kill();
  }
}

// Views count once per visitor and hour (issue 21) and each address is limited: the 10,000 views come
// from 10,000 visitors, named by X-Forwarded-For as a proxy in front of the api would.
const env: Record<string, string> = { ...(await prepareBenchEnv('stats')), TRUST_PROXY: 'loopback' };
let visitor = 0;
const nextVisitor = () => {
  visitor++;
  return `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
};
const [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
await workerIdle(env);
const { db, pool } = createDatabase(env.DATABASE_URL!, { max: 2 });
try {
  const [video] = await db.select().from(videos).where(eq(videos.title, 'Solo Highlights Reel'));
  if (!video) throw new Error('the seed has no free sample video');
  const started = performance.now();
  const load = await autocannon({
    url: `${api.url}/api/video-stream/${video.id}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': nextVisitor() },
        }),
      },
    ],
    connections: 50,
    amount: EVENTS,
  });
  const accepted = performance.now();
  for (;;) {
    const [row] = await db.select({ views: videos.views }).from(videos).where(eq(videos.id, video.id));
    if ((row?.views ?? 0) >= EVENTS) break;
    if (performance.now() - started > 120_000)
      throw new Error(`only ${row?.views} of ${EVENTS} views counted after 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const counted = performance.now();
  const [row] = await db.select({ views: videos.views }).from(videos).where(eq(videos.id, video.id));
  const eventsPerSecond = Math.round(EVENTS / ((counted - started) / 1000));

  // The counting stage alone: the rows the api's group commit writes, and the one job per time slot it
  // queues; timed until the counter shows them all.
  const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: null });
  const producer = createProducer(redis, env.QUEUE_PREFIX!);
  const stageStarted = performance.now();
  for (let saved = 0; saved < EVENTS; saved += 1_000) {
    await db
      .insert(videoStatEvents)
      .values(Array.from({ length: 1_000 }, () => ({ videoId: video.id, kind: 'view' as const })));
    await producer.enqueue('count-video-stat', { batch: statBatch() });
  }
  for (;;) {
    const [counts] = await db.select({ views: videos.views }).from(videos).where(eq(videos.id, video.id));
    if ((counts?.views ?? 0) >= 2 * EVENTS) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const stageSeconds = (performance.now() - stageStarted) / 1000;
  const [afterStage] = await db.select({ views: videos.views }).from(videos).where(eq(videos.id, video.id));
  await producer.close();
  redis.disconnect();

  const noop = await noopJobsPerSecond(env.REDIS_URL!, `${env.QUEUE_PREFIX}-noop`);
  const bareExpress = await bareExpressRequestsPerSecond();
  const ratio = eventsPerSecond / noop;
  printTable(`Counting ${EVENTS} views (api → outbox → count-video-stat → counter)`, [
    {
      'requests non-2xx': load.non2xx,
      'api accepted in s': ((accepted - started) / 1000).toFixed(1),
      'all counted in s': ((counted - started) / 1000).toFixed(1),
      'events/s': eventsPerSecond,
      'BullMQ no-op jobs/s': noop,
      ratio: `${(ratio * 100).toFixed(0)} % (target ≥ 50 %: ${verdict(ratio >= 0.5)})`,
      'bare Express POST/s': bareExpress,
      'events/s ÷ bare Express': `${((eventsPerSecond / bareExpress) * 100).toFixed(0)} %`,
      'counter exact': row!.views === EVENTS ? 'yes' : `NO (${row!.views})`,
    },
  ]);
  const stageRate = Math.round(EVENTS / stageSeconds);
  printTable(`The counting stage alone: ${EVENTS} saved views → count-video-stat → counter`, [
    {
      'all counted in s': stageSeconds.toFixed(2),
      'events/s': stageRate,
      'BullMQ no-op jobs/s': noop,
      ratio: `${Math.round((stageRate / noop) * 100)} %`,
      'counter exact': afterStage!.views === 2 * EVENTS ? 'yes' : `NO (${afterStage!.views - EVENTS})`,
    },
  ]);
  console.info(
    `peak RSS: api ${peakRssMb(api.child.pid!)} MB, worker ${peakRssMb(worker.child.pid!)} MB (target ≤ 200 MB each)`,
  );
} finally {
  await pool.end();
  await Promise.all([api.stop(), worker.stop()]);
}
