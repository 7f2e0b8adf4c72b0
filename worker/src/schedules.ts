import type { JobName, JobPayload, Producer } from '@app/shared/queue';
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
export function schedulesFor(_config: Config): Array<Schedule<JobName>> {
  return [
    // Applies view/download events whose queued job Redis never received (an outage).
    { id: 'count-video-stat-sweep', job: 'count-video-stat', every: 60_000, payload: {} },
    // Notifies the owner of contacts saved while Redis was unreachable.
    { id: 'contact-notification-sweep', job: 'contact-notification', every: 60_000, payload: {} },
  ];
}

export async function upsertSchedules(producer: Producer, config: Config): Promise<void> {
  for (const schedule of schedulesFor(config)) {
    await producer
      .queue(schedule.job)
      .upsertJobScheduler(
        schedule.id,
        schedule.pattern ? { pattern: schedule.pattern, tz: 'Pacific/Auckland' } : { every: schedule.every },
        { name: schedule.job, data: schedule.payload },
      );
  }
}
