import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { jobPayloadSchemas, type JobName, type JobOutcome } from '@app/shared/queue';
import type { HandlerMap, JobHandler, WorkerContext } from './context.ts';

/** Parses the payload, runs the handler, and logs the job's start, end or failure. */
export function createProcessor<N extends JobName>(name: N, handlers: HandlerMap, context: WorkerContext) {
  const handler = handlers[name] as JobHandler<N>;
  return async (job: Job, token?: string): Promise<JobOutcome> => {
    const log = context.logger.child({ job: name, jobId: job.id, attempt: job.attemptsMade + 1 });
    const parsed = jobPayloadSchemas[name].safeParse(job.data);
    if (!parsed.success) {
      log.error({ issues: parsed.error.issues }, 'job payload invalid; not retrying');
      throw new UnrecoverableError(`Invalid payload: ${parsed.error.message}`);
    }
    const started = performance.now();
    log.debug('job started');
    try {
      const outcome = await handler(parsed.data as never, { ...context, job, token });
      log.info({ outcome, ms: Math.round(performance.now() - started) }, 'job finished');
      return outcome;
    } catch (error) {
      if (error instanceof WaitingError) {
        log.info('job handed back to the queue');
        throw error;
      }
      log.warn({ err: error, ms: Math.round(performance.now() - started) }, 'job attempt failed');
      throw error;
    }
  };
}
