import type { Job, JobType } from 'bullmq';
import { isJobName, jobNames, type JobName } from '@app/shared/queue';
import type { JobSummary } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

export const jobStates = [
  'active',
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;
export type JobState = (typeof jobStates)[number];

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

async function summarise(queue: JobName, job: Job, knownState?: string): Promise<JobSummary> {
  return {
    id: job.id!,
    queue,
    name: job.name,
    state: knownState ?? (await job.getState()),
    data: job.data,
    progress: job.progress,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    result: job.returnvalue ?? null,
    failedReason: job.failedReason || null,
    createdAt: new Date(job.timestamp).toISOString(),
    processedAt: iso(job.processedOn),
    finishedAt: iso(job.finishedOn),
  };
}

export function queueOrThrow(name: string): JobName {
  if (!isJobName(name)) throw new HttpError(404, `Unknown queue ${name}`);
  return name;
}

/** Recent jobs of every queue (or one), newest first, optionally in one state. */
export async function listJobs(
  { producer }: Deps,
  filter: { queue?: JobName; state?: JobState; limit: number },
): Promise<JobSummary[]> {
  const states: JobType[] = filter.state ? [filter.state] : [...jobStates];
  const perQueue = await Promise.all(
    (filter.queue ? [filter.queue] : jobNames).map(async (name) => {
      const queue = producer.queue(name);
      const byState = await Promise.all(
        states.map(async (state) => {
          const jobs = await queue.getJobs([state], 0, filter.limit - 1, false);
          return Promise.all(jobs.filter(Boolean).map((job) => summarise(name, job, state)));
        }),
      );
      return byState.flat();
    }),
  );
  return perQueue
    .flat()
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, filter.limit);
}

export async function getJob({ producer }: Deps, queue: JobName, id: string): Promise<JobSummary> {
  // The state before the job: BullMQ writes a finished job's fields and its state in one step, so a job
  // that finishes between the two reads shows as still running, never "completed" with the fields
  // (attempts, result) of the attempt that was running.
  const state = await producer.queue(queue).getJobState(id);
  const job = state === 'unknown' ? undefined : await producer.queue(queue).getJob(id);
  if (!job) throw new HttpError(404, 'Job not found');
  return summarise(queue, job, state);
}

export async function retryJob({ producer }: Deps, queue: JobName, id: string): Promise<JobSummary> {
  const job = await producer.queue(queue).getJob(id);
  if (!job) throw new HttpError(404, 'Job not found');
  if ((await job.getState()) !== 'failed') throw new HttpError(409, 'Only a failed job can be retried');
  await job.retry('failed');
  return summarise(queue, job, 'waiting');
}
