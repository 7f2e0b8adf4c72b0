import { useEffect, useRef, useState } from 'react';
import { toast } from '../../components/ui/toast-store.ts';
import { failureToast } from '../admin-shell/admin-mutation.ts';
import { useStartSync, useSyncQueue, useSyncResults, SYNC_QUEUE } from './queries.ts';
import { jobOutcome, outcomeToast, runOutcome, RUNNING_STATES } from './sync-outcome.ts';

interface Tracked {
  queue: string;
  jobId: string;
  /** When we began watching: the sync's job id is the same from one run to the next. */
  since: number;
}

/**
 * Starting a sync and following it to its end: whether one is running (started here, or by the schedule,
 * the CLI or another tab), its progress, and the toast that says how it went.
 */
export function useSync() {
  const [tracked, setTracked] = useState<Tracked | null>(null);
  // Read on arrival, then every second while one is followed. The sync's job is removed when it ends, so
  // "no longer listed" means finished; reading the list rather than the job avoids 404s in the console.
  const watch = useSyncQueue(tracked?.since ?? null);
  const results = useSyncResults();
  const followed = tracked ? watch.data?.jobs.find((job) => job.id === tracked.jobId) : undefined;
  // The watch whose outcome was announced, and when: an older "running" answer must not revive it.
  const announced = useRef({ since: -1, at: 0 });

  useEffect(() => {
    const running = watch.data?.jobs.find((job) => job.id === SYNC_QUEUE && RUNNING_STATES.has(job.state));
    if (!tracked && running && watch.dataUpdatedAt > announced.current.at) {
      setTracked({ queue: SYNC_QUEUE, jobId: running.id, since: Date.now() });
    }
  }, [tracked, watch.data, watch.dataUpdatedAt]);

  const start = useStartSync(({ jobId, queue }) => setTracked({ queue, jobId, since: Date.now() }));

  // The job has ended: say how it went, then show the new links and the new run.
  useEffect(() => {
    if (!tracked || !watch.isSuccess || announced.current.since === tracked.since) return;
    const fromJob = jobOutcome(followed);
    if (fromJob === 'running') return;
    announced.current = { since: tracked.since, at: Date.now() };
    void (async () => {
      const outcome = fromJob !== 'gone' ? fromJob : runOutcome(await results.latestRun());
      toast(outcomeToast(outcome));
      announced.current.at = Date.now();
      setTracked(null);
      await results.refresh();
    })();
  }, [tracked, watch.isSuccess, followed, results]);

  // A queue that cannot be read (session ended, server error) must not leave the button stuck.
  useEffect(() => {
    if (!tracked || !watch.isError) return;
    announced.current = { since: tracked.since, at: Date.now() };
    failureToast('Sync failed', watch.error, 'Unknown error occurred');
    setTracked(null);
  }, [watch.isError, watch.error, tracked]);

  return {
    start: () => start.mutate(),
    syncing: start.isPending || tracked !== null,
    progress: typeof followed?.progress === 'number' ? followed.progress : null,
  };
}
