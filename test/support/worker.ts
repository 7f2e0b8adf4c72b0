import { QueueEvents, type Worker } from 'bullmq';
import { createProducer, createRedis, type Producer } from '@app/shared/queue';
import { createStorage } from '@app/shared/storage';
import { createStripe } from '@app/shared/stripe';
import { createMailer, type Mailer } from '../../worker/src/clients/mailer.ts';
import type { HandlerMap, WorkerContext } from '../../worker/src/context.ts';
import { handlers as realHandlers } from '../../worker/src/handlers.ts';
import { createVideoTools } from '../../worker/src/media/tools.ts';
import { startWorkers } from '../../worker/src/worker.ts';
import { createTestLogger } from './guards.ts';
import type { TestEnv } from './test-env.ts';

export interface TestWorker {
  producer: Producer;
  /** What the handlers receive (database, storage, ffmpeg tools...). */
  context: WorkerContext;
  workers: Worker[];
  close(): Promise<void>;
}

/**
 * What the worker's handlers receive (database, storage, mailer, Stripe, ffmpeg tools...), on the
 * test file's prefix, without queues listening: a test can call a handler directly.
 */
export function createTestContext(env: TestEnv): { context: WorkerContext; close(): Promise<void> } {
  const connection = createRedis(env.config.REDIS_URL, 'worker');
  const producer = createProducer(connection, env.config.QUEUE_PREFIX);
  const logger = createTestLogger('worker');
  const mailer = createMailer(env.config, logger);
  const videoTools = createVideoTools(env.config, logger);
  const context: WorkerContext = {
    config: env.config,
    db: env.database.db,
    logger,
    producer,
    redis: connection,
    mailer,
    storage: createStorage(env.config),
    stripe: createStripe(env.config),
    videoTools,
  };
  return {
    context,
    async close() {
      videoTools.stop();
      await producer.close();
      connection.disconnect();
      mailer.close();
    },
  };
}

/** The worker's real queue code in this process, on the test file's prefix; handlers can be swapped. */
export function startTestWorker(env: TestEnv, handlers: Partial<HandlerMap> = {}): TestWorker {
  const { context, close } = createTestContext(env);
  const workers = startWorkers(context, { ...realHandlers, ...handlers } as HandlerMap, {
    connection: context.redis,
    prefix: env.config.QUEUE_PREFIX,
  });
  return {
    producer: context.producer,
    context,
    workers,
    async close() {
      // As the worker process does on SIGTERM: a running ffmpeg (a video or its stream) stops first, and its
      // job goes back to the queue, so closing does not wait for minutes of encoding.
      context.videoTools.stop();
      await Promise.all(workers.map((worker) => worker.close()));
      await close();
    },
  };
}

/** A mailer whose server refuses every message for good (SMTP 550). */
export const refusingMailer: Mailer = {
  send: () => Promise.reject(Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 })),
  close() {},
};

/** Resolves when every job of the queue has finished (nothing waiting, active or delayed). */
export async function drain(producer: Producer, name: Parameters<Producer['queue']>[0], timeoutMs = 20_000) {
  const queue = producer.queue(name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).every((count) => count === 0)) return;
    if (Date.now() > deadline) throw new Error(`queue ${name} did not drain: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export { QueueEvents };
