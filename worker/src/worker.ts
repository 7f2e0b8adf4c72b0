import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { defaultJobOptions, jobNames, jobPolicies, type JobName } from '@app/shared/queue';
import type { HandlerMap, WorkerContext } from './context.ts';
import { createProcessor } from './processor.ts';

const concurrency: Partial<Record<JobName, number>> = {
  'count-video-stat': 4,
  // Buyers wait on it; sales stay one per payment under any concurrency (unique keys, row locks).
  'record-sale': 8,
  // One sync at a time, whether the admin, the schedule or the CLI started it.
  'sync-order-links': 1,
  // A 24-megapixel photo takes ~150 MB while it is processed, and libvips already uses every core.
  'process-image': 1,
  // Renditions: two encodes at once already fill the machine; the sweep goes one video at a time.
  'make-video-stream': 1,
};

/** Starts one BullMQ worker per queue. */
export function startWorkers(
  context: WorkerContext,
  handlers: HandlerMap,
  options: { connection: Redis; prefix: string },
): Worker[] {
  return jobNames.map((name) => {
    const worker = new Worker(name, createProcessor(name, handlers, context), {
      connection: options.connection,
      prefix: options.prefix,
      // VIDEO_CONCURRENCY (default 1): one ffmpeg already uses every core it gets.
      concurrency: name === 'process-video' ? context.config.VIDEO_CONCURRENCY : (concurrency[name] ?? 2),
      // A crashed worker's jobs count as stalled, and go back to the queue, once its lock lapses.
      lockDuration: context.config.JOB_LOCK_MS,
      stalledInterval: context.config.JOB_LOCK_MS,
      removeOnComplete: defaultJobOptions.removeOnComplete as { age: number; count: number },
      removeOnFail: defaultJobOptions.removeOnFail as { age: number; count: number },
    });
    worker.on('failed', (job, error) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? jobPolicies[name].attempts;
      if (job.attemptsMade >= attempts || error.name === 'UnrecoverableError') {
        context.logger.error({ job: name, jobId: job.id, err: error }, 'job failed for good');
      }
    });
    worker.on('error', (error) =>
      context.logger.warn({ err: error, queue: name }, 'worker connection error'),
    );
    return worker;
  });
}
