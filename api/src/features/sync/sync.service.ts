import { desc } from 'drizzle-orm';
import { orderLinkSource } from '@app/shared/config';
import { syncRuns } from '@app/shared/db';
import { SYNC_JOB_ID } from '@app/shared/queue';
import { withRedisTimeout } from '@app/shared/redis';
import type { SyncResult, SyncRun, SyncRunsResponse, SyncStarted } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

const HISTORY_LENGTH = 10;
/** BullMQ states of a sync that has not ended (delayed: waiting to retry). */
const UNFINISHED = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** Queues a sync, or answers with the one already waiting or running (its job id is fixed). */
export async function startSync(deps: Deps): Promise<SyncStarted> {
  if (!orderLinkSource(deps.config)) {
    throw new HttpError(
      409,
      'Order-link sync is not set up: configure GOOGLE_SHEET_ID with a service account or API key, or ORDER_LINKS_CSV',
    );
  }
  const { jobId } = await deps.producer.enqueue('sync-order-links', { trigger: 'admin' });
  return { jobId, queue: 'sync-order-links' };
}

/** The last runs from the database, and whether a sync is under way from the queue. */
export async function syncStatus(deps: Deps): Promise<SyncRunsResponse> {
  const queue = deps.producer.queue('sync-order-links');
  const [rows, job] = await Promise.all([
    deps.db
      .select()
      .from(syncRuns)
      .orderBy(desc(syncRuns.startedAt), desc(syncRuns.id))
      .limit(HISTORY_LENGTH),
    withRedisTimeout(deps.redis, async () => {
      const found = await queue.getJob(SYNC_JOB_ID);
      return found ? { state: await found.getState(), progress: found.progress } : null;
    }).catch((error: unknown) => {
      // Redis away: the history still answers; a run marked running stands for the queue.
      deps.logger.warn({ err: error }, 'sync status: queue unreadable');
      return undefined;
    }),
  ]);
  const runs: SyncRun[] = rows.map((run) => ({
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    result: (run.result as SyncResult | null) ?? null,
    failureReason: run.failureReason,
  }));
  const running =
    job === undefined ? runs[0]?.status === 'running' : job !== null && UNFINISHED.has(job.state);
  return {
    configured: orderLinkSource(deps.config) !== null,
    running,
    progress: running && typeof job?.progress === 'number' ? job.progress : null,
    job: running && job ? { jobId: SYNC_JOB_ID, queue: 'sync-order-links', state: job.state } : null,
    runs,
  };
}
