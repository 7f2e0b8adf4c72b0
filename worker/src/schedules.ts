import type { Redis } from 'ioredis';
import { jobOptions, type JobName, type JobPayload, type Producer } from '@app/shared/queue';
import type { Config } from '@app/shared/config';
import type { Logger } from '@app/shared/logger';

interface Schedule<N extends JobName> {
  id: string;
  job: N;
  every?: number;
  pattern?: string;
  payload: JobPayload<N>;
}

/**
 * Repeating jobs, as BullMQ job schedulers: stored in Redis, so however many worker replicas
 * upsert them, each tick runs once.
 */
export function schedulesFor(config: Config): Array<Schedule<JobName>> {
  const schedules: Array<Schedule<JobName>> = [
    // Applies view/download events whose queued job Redis never received (an outage).
    { id: 'count-video-stat-sweep', job: 'count-video-stat', every: config.SWEEP_INTERVAL_MS, payload: {} },
    // Notifies the owner of contacts saved while Redis was unreachable.
    {
      id: 'contact-notification-sweep',
      job: 'contact-notification',
      every: config.SWEEP_INTERVAL_MS,
      payload: {},
    },
    // Processes uploaded pictures whose job Redis lost (they would show "Processing…" for ever).
    { id: 'process-image-sweep', job: 'process-image', every: config.SWEEP_INTERVAL_MS, payload: {} },
    // Applied view/download events are only history once counted: keep the table small.
    { id: 'prune-video-stat-events', job: 'prune-video-stat-events', every: 3600_000, payload: {} },
    // E-mails the owner removal requests saved while Redis was unreachable.
    {
      id: 'removal-request-notification-sweep',
      job: 'removal-request-notification',
      every: config.SWEEP_INTERVAL_MS,
      payload: {},
    },
    // Answers "tell me when it is online" alerts whose publish-time job Redis lost.
    {
      id: 'online-alert-notify-sweep',
      job: 'online-alert-notify',
      every: config.SWEEP_INTERVAL_MS,
      payload: {},
    },
    // Deletes what the privacy page says is not kept (expired sessions "at once": hourly).
    { id: 'retention-sweep', job: 'retention-sweep', every: 3600_000, payload: {} },
    // Stripe's payouts for the GST report: their status moves from pending to paid within days.
    { id: 'read-stripe-payouts', job: 'read-stripe-payouts', every: 3600_000, payload: {} },
    // Multipart uploads of a bulk upload left unfinished for days: their parts cost storage.
    { id: 'sweep-abandoned-uploads', job: 'sweep-abandoned-uploads', every: 3600_000, payload: {} },
  ];
  if (config.SYNC_CRON) {
    schedules.push({
      id: 'sync-order-links',
      job: 'sync-order-links',
      pattern: config.SYNC_CRON,
      payload: { trigger: 'schedule' },
    });
  }
  return schedules;
}

/** Schedules that exist only when configured: removed from Redis when their setting is unset. */
const optionalSchedules = [{ id: 'sync-order-links', job: 'sync-order-links' }] as const;

function upsert(producer: Producer, schedule: Schedule<JobName>) {
  return producer
    .queue(schedule.job)
    .upsertJobScheduler(
      schedule.id,
      schedule.pattern ? { pattern: schedule.pattern, tz: 'Pacific/Auckland' } : { every: schedule.every },
      {
        name: schedule.job,
        data: schedule.payload,
        opts: scheduledJobOptions(schedule.job, schedule.payload),
      },
    );
}

/** Sets every schedule (a changed interval or pattern takes effect) and removes the unconfigured ones. */
export async function upsertSchedules(producer: Producer, config: Config): Promise<void> {
  const schedules = schedulesFor(config);
  for (const schedule of schedules) {
    try {
      await upsert(producer, schedule);
    } catch (error) {
      if (!schedule.pattern) throw error;
      throw new Error(
        `Schedule ${schedule.id} (SYNC_CRON "${schedule.pattern}") could not be set: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  for (const optional of optionalSchedules) {
    if (!schedules.some((schedule) => schedule.id === optional.id)) {
      await producer.queue(optional.job).removeJobScheduler(optional.id);
    }
  }
}

/**
 * Upserts the schedules whose scheduler, or the job it holds for its next tick, is gone from Redis
 * (restarted without its data, a failover to an empty replica, FLUSHALL). One left in place is not
 * touched: upserting a cron schedule whose tick is waiting to be picked up would move it to the next
 * tick. Returns the ids it put back.
 */
export async function restoreSchedules(producer: Producer, config: Config): Promise<string[]> {
  const restored: string[] = [];
  for (const schedule of schedulesFor(config)) {
    const queue = producer.queue(schedule.job);
    const scheduler = await queue.getJobScheduler(schedule.id);
    const nextTick = scheduler?.next
      ? await queue.getJob(`repeat:${schedule.id}:${scheduler.next}`)
      : undefined;
    if (nextTick) continue;
    await upsert(producer, schedule);
    restored.push(schedule.id);
  }
  return restored;
}

/**
 * Keeps the schedules in Redis for as long as the worker runs (decision 018): they are checked when
 * the connection is ready again after a loss, and every SWEEP_INTERVAL_MS for a Redis emptied without
 * dropping connections (FLUSHALL). Returns a function that stops the checks.
 */
export function keepSchedules(
  producer: Producer,
  config: Config,
  connection: Redis,
  logger: Logger,
): () => void {
  let checking = false;
  const check = async (reason: string) => {
    if (checking || connection.status !== 'ready') return;
    checking = true;
    try {
      const restored = await restoreSchedules(producer, config);
      if (restored.length)
        logger.warn({ schedules: restored, reason }, 'schedules missing from Redis were set again');
    } catch (error) {
      logger.warn({ err: error, reason }, 'schedules could not be checked; trying again later');
    } finally {
      checking = false;
    }
  };
  const onReady = () => void check('reconnected');
  connection.on('ready', onReady);
  const timer = setInterval(() => void check('periodic check'), config.SWEEP_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    connection.off('ready', onReady);
  };
}

/** The job's own attempts, backoff and clean-up; the scheduler gives each run its id. */
function scheduledJobOptions<N extends JobName>(name: N, payload: JobPayload<N>) {
  const { attempts, backoff, removeOnComplete, removeOnFail } = jobOptions(name, payload);
  return { attempts, backoff, removeOnComplete, removeOnFail };
}
