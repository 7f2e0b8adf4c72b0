// Ops CLI: queue an order-link sync, wait for it, print the result as JSON.
//   npm run sync-order-links              (exit 1 if the sync fails)
//   npm run sync-order-links -- --no-wait (queue it and print the job id)
import { Job, QueueEvents } from 'bullmq';
import { loadConfig, orderLinkSource } from '@app/shared/config';
import { createProducer, createRedis } from '@app/shared/queue';

const WAIT_LIMIT_MS = 10 * 60_000;

const config = loadConfig();
if (!orderLinkSource(config)) {
  console.error(
    'Order-link sync is not set up: set GOOGLE_SHEET_ID with a service account or API key, or ORDER_LINKS_CSV.',
  );
  process.exit(2);
}
const connection = createRedis(config.REDIS_URL, 'worker');
const producer = createProducer(connection, config.QUEUE_PREFIX);
let exitCode = 0;
try {
  const queued = await producer.enqueue('sync-order-links', { trigger: 'cli' });
  if (process.argv.includes('--no-wait')) {
    console.info(JSON.stringify(queued));
  } else {
    const events = new QueueEvents('sync-order-links', {
      connection: createRedis(config.REDIS_URL, 'worker'),
      prefix: config.QUEUE_PREFIX,
    });
    try {
      await events.waitUntilReady();
      const job = await Job.fromId(producer.queue('sync-order-links'), queued.jobId);
      const result: unknown = job
        ? await job.waitUntilFinished(events, WAIT_LIMIT_MS)
        : { status: 'finished before we could watch it' };
      console.info(JSON.stringify(result, null, 2));
    } catch (error) {
      console.error(JSON.stringify({ status: 'failed', reason: (error as Error).message }, null, 2));
      exitCode = 1;
    } finally {
      await events.close();
    }
  }
} finally {
  await producer.close();
  connection.disconnect();
}
process.exit(exitCode);
