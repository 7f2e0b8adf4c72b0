import { createServer, type Server } from 'node:http';
import type { Worker } from 'bullmq';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { bearerTokenMatches, registerQueueDepthGauge } from '@app/shared/metrics';
import { sql } from 'drizzle-orm';
import type { WorkerContext } from './context.ts';

/**
 * GET /readyz: PostgreSQL and Redis reachable (503 otherwise), and whether videos can be processed.
 * Only ok / not ok without the metrics token: which ffmpeg, where and which version is for the
 * owner's monitoring (with the token) and the start-up log, not for whoever reaches the port.
 */
async function readiness(
  { db, redis, videoTools }: Pick<WorkerContext, 'db' | 'redis' | 'videoTools'>,
  detailed: boolean,
) {
  const within = <T>(promise: Promise<T>) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000)),
    ]);
  const okay = (promise: Promise<unknown>) =>
    within(promise).then(
      () => 'ok' as const,
      () => 'not ok' as const,
    );
  const [database, queue, binaries] = await Promise.all([
    okay(db.execute(sql`select 1`)),
    okay(redis.ping()),
    videoTools.prepare(),
  ]);
  const ready = database === 'ok' && queue === 'ok';
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? 'ready' : 'unavailable',
      postgres: database,
      redis: queue,
      videoProcessing: binaries ? 'ok' : 'not ok',
      ...(detailed && {
        ffmpeg: binaries?.ffmpeg ?? null,
        ffprobe: binaries?.ffprobe ?? null,
        ...(!binaries && { videoProcessingProblem: videoTools.unavailable() }),
      }),
    },
  };
}

/**
 * The worker's Prometheus metrics: process, job durations and failures by job name, queue depths.
 * Served at GET /metrics on WORKER_METRICS_HOST:WORKER_METRICS_PORT (127.0.0.1 unless configured) for
 * `Authorization: Bearer <METRICS_TOKEN>`, beside GET /readyz (ok / not ok without the token); nothing
 * listens without a token. Resolves once listening.
 */
export async function startMetricsServer(
  context: Pick<WorkerContext, 'config' | 'logger' | 'producer' | 'db' | 'redis' | 'videoTools'>,
  workers: Worker[],
  port = context.config.WORKER_METRICS_PORT,
): Promise<Server | undefined> {
  const { config, logger, producer } = context;
  const token = config.METRICS_TOKEN;
  if (!token) return undefined;

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerQueueDepthGauge(registry, producer, logger);
  const durations = new Histogram({
    name: 'job_duration_seconds',
    help: 'Time from a job starting to its end, by job name and outcome',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const failures = new Counter({
    name: 'jobs_failed_total',
    help: 'Failed job attempts by job name (a retried job counts each failure)',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  for (const worker of workers) {
    worker.on('completed', (job) => {
      if (job.processedOn && job.finishedOn)
        durations.observe(
          { job: worker.name, outcome: 'completed' },
          (job.finishedOn - job.processedOn) / 1000,
        );
    });
    worker.on('failed', (job) => {
      failures.inc({ job: worker.name });
      if (job?.processedOn && job.finishedOn)
        durations.observe({ job: worker.name, outcome: 'failed' }, (job.finishedOn - job.processedOn) / 1000);
    });
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === '/readyz') {
        const { status, body } = await readiness(
          context,
          bearerTokenMatches(req.headers.authorization, token),
        );
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      } else if (req.method !== 'GET' || req.url !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"Not found"}');
      } else if (!bearerTokenMatches(req.headers.authorization, token)) {
        res
          .writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' })
          .end('{"message":"Metrics need the bearer token"}');
      } else {
        const body = await registry.metrics();
        res.writeHead(200, { 'Content-Type': registry.contentType }).end(body);
      }
    })().catch((error: unknown) => {
      logger.warn({ err: error }, 'metrics scrape failed');
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"message":"Metrics are unavailable"}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.WORKER_METRICS_HOST, () => resolve());
  });
  const { address, port: listening } = server.address() as { address: string; port: number };
  logger.info({ host: address, port: listening }, 'worker metrics listening');
  return server;
}
