import { jobOptions, type JobName, type JobPayload, type Producer } from '@app/shared/queue';
import type { Config } from '@app/shared/config';

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

export async function upsertSchedules(producer: Producer, config: Config): Promise<void> {
  const schedules = schedulesFor(config);
  for (const schedule of schedules) {
    try {
      await producer
        .queue(schedule.job)
        .upsertJobScheduler(
          schedule.id,
          schedule.pattern
            ? { pattern: schedule.pattern, tz: 'Pacific/Auckland' }
            : { every: schedule.every },
          {
            name: schedule.job,
            data: schedule.payload,
            opts: scheduledJobOptions(schedule.job, schedule.payload),
          },
        );
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

/** The job's own attempts, backoff and clean-up; the scheduler gives each run its id. */
function scheduledJobOptions<N extends JobName>(name: N, payload: JobPayload<N>) {
  const { attempts, backoff, removeOnComplete, removeOnFail } = jobOptions(name, payload);
  return { attempts, backoff, removeOnComplete, removeOnFail };
}
