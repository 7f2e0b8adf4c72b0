// How a sync the admin screen followed has ended, told apart from the screen's polling (sync-page.tsx).

import type { JobSummary, SyncResult, SyncRun } from '@app/shared/schemas';

/** BullMQ states of a sync that has not ended (delayed: waiting to retry). */
export const RUNNING_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export type SyncOutcome = { ok: true; updated: number } | { ok: false; reason: string | null };

/** The followed job as the jobs list shows it. */
type ListedJob = Pick<JobSummary, 'state' | 'failedReason'> & Partial<Pick<JobSummary, 'result'>>;

/** The newest row of the sync history. */
type RecordedRun = Pick<SyncRun, 'status' | 'failureReason'> & {
  result: Pick<SyncResult, 'updatedCount'> | null;
};

/**
 * What the job's listing says: 'running' while it has not ended, the outcome once it completed or
 * failed, and 'gone' when the queue no longer lists it (the sync's job is removed when it ends), in
 * which case the sync history has the answer (`runOutcome`).
 */
export function jobOutcome(job: ListedJob | undefined): SyncOutcome | 'running' | 'gone' {
  if (!job) return 'gone';
  if (RUNNING_STATES.has(job.state)) return 'running';
  if (job.state === 'completed') {
    const result = job.result as SyncResult | null | undefined;
    return { ok: true, updated: result?.updatedCount ?? 0 };
  }
  if (job.state === 'failed') return { ok: false, reason: job.failedReason ?? null };
  return 'gone';
}

/** The outcome the history records; with no history to read, a sync that changed nothing. */
export function runOutcome(latest: RecordedRun | undefined): SyncOutcome {
  return latest?.status === 'failed'
    ? { ok: false, reason: latest.failureReason }
    : { ok: true, updated: latest?.result?.updatedCount ?? 0 };
}

/** The toast that announces an outcome. */
export function outcomeToast(outcome: SyncOutcome) {
  return outcome.ok
    ? {
        title: 'Order links synced successfully!',
        description: `Updated ${outcome.updated} events with new order links.`,
        variant: 'success' as const,
      }
    : {
        title: 'Sync failed',
        description: outcome.reason || 'Unknown error occurred',
        variant: 'destructive' as const,
      };
}
