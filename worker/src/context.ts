import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '@app/shared/config';
import type { Db } from '@app/shared/db';
import type { Logger } from '@app/shared/logger';
import type { JobName, JobOutcome, JobPayload, Producer } from '@app/shared/queue';
import type { Storage } from '@app/shared/storage';
import type { Stripe } from '@app/shared/stripe';
import type { Mailer } from './clients/mailer.ts';
import type { VideoTools } from './media/tools.ts';

/** What every handler receives besides its parsed payload. */
export interface WorkerContext {
  config: Config;
  db: Db;
  logger: Logger;
  producer: Producer;
  /** The worker's own Redis connection (BullMQ's blocking ones are separate). */
  redis: Redis;
  mailer: Mailer;
  storage: Storage;
  /** One client (and its kept-alive connections) for every job; null without STRIPE_SECRET_KEY. */
  stripe: Stripe | null;
  /** ffmpeg, temp folders and the stop signal for process-video. */
  videoTools: VideoTools;
}

export type JobHandler<N extends JobName> = (
  payload: JobPayload<N>,
  // token: the worker's lock on the job, for a handler that hands its job back to the queue.
  context: WorkerContext & { job: Job; token?: string },
) => Promise<JobOutcome>;

export type HandlerMap = { [N in JobName]: JobHandler<N> };
