// Ops CLI: queue an order-link sync, wait for it, print the result as JSON.
//   npm run sync-order-links              (exit 1 if the sync fails)
//   npm run sync-order-links -- --no-wait (queue it and print the job id)
// Exit codes: 0 done, 1 the sync failed (or could not be queued, or timed out), 2 not configured.
import { QueueEvents } from 'bullmq';
import { loadConfig, orderLinkSource } from '@app/shared/config';
import { createProducer, createRedis, SYNC_JOB_ID } from '@app/shared/queue';

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
const wait = !process.argv.includes('--no-wait');
// Listen before queuing: a sync that fails at once is removed within milliseconds of ending.
const events = wait
  ? new QueueEvents('sync-order-links', {
      connection: createRedis(config.REDIS_URL, 'worker'),
      prefix: config.QUEUE_PREFIX,
    })
  : undefined;
try {
  await events?.waitUntilReady();
  const ended = events
    ? new Promise<{ ok: boolean; value: unknown }>((resolve) => {
        events.on('completed', ({ jobId, returnvalue }) => {
          if (jobId === SYNC_JOB_ID) resolve({ ok: true, value: returnvalue });
        });
        events.on('failed', ({ jobId, failedReason }) => {
          if (jobId === SYNC_JOB_ID)
            resolve({ ok: false, value: { status: 'failed', reason: failedReason } });
        });
      })
    : undefined;
  const queued = await producer.enqueue('sync-order-links', { trigger: 'cli' });
  if (!ended) {
    console.info(JSON.stringify(queued));
  } else {
    const timeout = new Promise<{ ok: boolean; value: unknown }>((resolve) =>
      setTimeout(
        () => resolve({ ok: false, value: { status: 'failed', reason: 'timed out waiting for the sync' } }),
        WAIT_LIMIT_MS,
      ).unref(),
    );
    const outcome = await Promise.race([ended, timeout]);
    (outcome.ok ? console.info : console.error)(JSON.stringify(outcome.value, null, 2));
    if (!outcome.ok) exitCode = 1;
  }
} catch (error) {
  console.error(
    JSON.stringify({ status: 'failed', reason: `Could not queue the sync: ${(error as Error).message}` }),
  );
  exitCode = 1;
} finally {
  await events?.close();
  await producer.close();
  connection.disconnect();
}
process.exit(exitCode);
