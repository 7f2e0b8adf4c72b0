import { loadConfig } from '@app/shared/config';
import { createDatabase } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createProducer, createRedis } from '@app/shared/queue';
import { createStorage } from '@app/shared/storage';
import { createStripe } from '@app/shared/stripe';
import { createMailer } from './clients/mailer.ts';
import { handlers } from './handlers.ts';
import { keepSchedules, upsertSchedules } from './schedules.ts';
import { startWorkers } from './worker.ts';
import { startMetricsServer } from './metrics.ts';
import { createVideoTools } from './media/tools.ts';

const SHUTDOWN_LIMIT_MS = 10_000;

const config = loadConfig();
const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
const { db, pool } = createDatabase(config.DATABASE_URL, { max: 10 });
const connection = createRedis(config.REDIS_URL, 'worker');
const producer = createProducer(connection, config.QUEUE_PREFIX);

const mailer = createMailer(config, logger);
const storage = createStorage(config);
const videoTools = createVideoTools(config, logger);
await videoTools.prepare();

const workers = startWorkers(
  {
    config,
    db,
    logger,
    producer,
    redis: connection,
    mailer,
    storage,
    stripe: createStripe(config),
    videoTools,
  },
  handlers,
  {
    connection,
    prefix: config.QUEUE_PREFIX,
  },
);
await upsertSchedules(producer, config);
const stopKeepingSchedules = keepSchedules(producer, config, connection, logger);
const metricsServer = await startMetricsServer(
  { config, logger, producer, db, redis: connection, videoTools },
  workers,
);
logger.info({ queues: workers.map((w) => w.name) }, 'worker started');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker shutting down; finishing running jobs');
  setTimeout(() => {
    logger.error('shutdown took too long; exiting (unfinished jobs return to the queue)');
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS).unref();
  stopKeepingSchedules();
  metricsServer?.close();
  // ffmpeg children are killed and their jobs handed back to the queue, for the next worker.
  videoTools.stop();
  // Worker.close waits for the jobs in hand to finish and takes no new ones.
  await Promise.all(workers.map((worker) => worker.close()));
  await producer.close();
  connection.disconnect();
  mailer.close();
  await pool.end();
  process.exit(0);
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
