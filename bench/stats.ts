// Bench 2, counting: 10,000 views through the production api and worker, measured from the first
// request until the counter shows all of them, against BullMQ's own no-op rate in the same run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { createDatabase, videos } from '@app/shared/db';
import { startApi, startWorker } from '../test/support/processes.ts';
import { peakRssMb, prepareBenchEnv, printTable, verdict } from './lib.ts';

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

const env = await prepareBenchEnv('stats');
const [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
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
  console.info(
    `peak RSS: api ${peakRssMb(api.child.pid!)} MB, worker ${peakRssMb(worker.child.pid!)} MB (target ≤ 200 MB each)`,
  );
} finally {
  await pool.end();
  await Promise.all([api.stop(), worker.stop()]);
}
