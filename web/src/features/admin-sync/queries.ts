import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminEventList, JobList, SyncRunsResponse, SyncStarted } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys, publicKeys } from '../admin-shell/query-keys.ts';

export const SYNC_QUEUE = 'sync-order-links';
const POLL_MS = 1_000;

const fetchRuns = () => api.get<SyncRunsResponse>('/api/admin/sync-runs');

export function useSyncRuns() {
  return useQuery({ queryKey: adminKeys.syncRuns, queryFn: fetchRuns });
}

/** The upcoming events, whose order links the sync fills (the list is paged: the next 200). */
export function useUpcomingEvents() {
  return useQuery({
    queryKey: adminKeys.events.upcoming(),
    queryFn: () =>
      api.get<AdminEventList>('/api/admin/events?when=upcoming&pageSize=200').then((list) => list.events),
  });
}

/**
 * The sync queue's jobs: on arrival, then every second while one is `followed` (its watch's start, which
 * gives each watch its own key, so its answers were all fetched after it began).
 */
export function useSyncQueue(followed: number | null) {
  return useQuery({
    queryKey: [...adminKeys.jobs.watch(SYNC_QUEUE), followed ?? 'idle'],
    queryFn: () => api.get<JobList>(`/api/admin/jobs?queue=${SYNC_QUEUE}&limit=10`),
    refetchInterval: followed !== null ? POLL_MS : false,
  });
}

export function useStartSync(onStarted: (started: SyncStarted) => void) {
  return useAdminMutation({
    mutationFn: () => api.post<SyncStarted>('/api/sync-order-links'),
    onSuccess: onStarted,
    failure: 'Sync failed',
    fallback: 'Unknown error occurred',
  });
}

/** After a sync: the newest run, asked afresh (null when it cannot be read), and a refresh of what it changed. */
export function useSyncResults() {
  const client = useQueryClient();
  return useMemo(
    () => ({
      latestRun: async () =>
        (
          await client
            .fetchQuery({ queryKey: adminKeys.syncRuns, queryFn: fetchRuns, staleTime: 0 })
            .catch(() => null)
        )?.runs[0],
      refresh: () =>
        Promise.all(
          [adminKeys.syncRuns, adminKeys.events.all, publicKeys.events, adminKeys.jobs.watch(SYNC_QUEUE)].map(
            (queryKey) => client.invalidateQueries({ queryKey }),
          ),
        ),
    }),
    [client],
  );
}
