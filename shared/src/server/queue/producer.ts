import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobPayloadSchemas, type JobName, type JobPayload } from './jobs.ts';
import { jobOptions } from './options.ts';
import type { Logger } from '../logger.ts';
import { withRedisTimeout } from '../redis.ts';

export interface QueuedJob {
  jobId: string;
  queue: JobName;
}

export interface Producer {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>): Promise<QueuedJob>;
  queue(name: JobName): Queue;
  close(): Promise<void>;
}

/**
 * After a commit that may have put a video online (api or worker): answers the "tell me when it is
 * online" alerts waiting for it (decision 035). Never fails its caller: the job's sweep covers a lost one.
 */
export async function alertsAfterPublish({ producer, logger }: { producer: Producer; logger: Logger }) {
  await producer.enqueue('online-alert-notify', {}).catch((error: unknown) => {
    logger.warn({ err: error }, 'online-alert-notify not queued; the sweep will run it');
  });
}

/** Queues share one Redis connection; each job name is its own queue. */
export function createProducer(connection: Redis, prefix: string): Producer {
  const queues = new Map<JobName, Queue>();

  function queue(name: JobName): Queue {
    let found = queues.get(name);
    if (!found) {
      found = new Queue(name, { connection, prefix });
      found.on('error', () => {});
      queues.set(name, found);
    }
    return found;
  }

  return {
    queue,
    async enqueue(name, payload) {
      const parsed = jobPayloadSchemas[name].parse(payload) as JobPayload<typeof name>;
      const job = await withRedisTimeout(connection, () =>
        queue(name).add(name, parsed, jobOptions(name, parsed)),
      );
      return { jobId: job.id!, queue: name };
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
