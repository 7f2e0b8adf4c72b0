import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, FileSpreadsheet, MapPin, RefreshCw } from 'lucide-react';
import { formatDateTime } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { failureToast, useAdminMutation } from '../../features/admin-shell/admin-mutation.ts';
import { AdminSection } from '../../features/admin-shell/admin-section.tsx';
import { QueryState, QueryTable } from '../../features/admin-shell/query-state.tsx';
import {
  jobOutcome,
  outcomeToast,
  runOutcome,
  RUNNING_STATES,
} from '../../features/admin-sync/sync-outcome.ts';
import type { AdminEventList, JobList, SyncRunsResponse, SyncStarted } from '@app/shared/schemas';

interface Tracked {
  queue: string;
  jobId: string;
  /** When we began watching: the sync's job id is the same from one run to the next. */
  since: number;
}

const SYNC_QUEUE = 'sync-order-links';
const POLL_MS = 1_000;

const runsKey = ['/api/admin/sync-runs'];
const eventsKey = ['/api/admin/events'];
const watchKey = ['/api/admin/jobs', SYNC_QUEUE, 'watch'];
const fetchRuns = () => api.get<SyncRunsResponse>('/api/admin/sync-runs');

/** The history table's columns: the five counts are right-aligned numbers. */
const historyColumns: TableColumn[] = [
  { label: 'When' },
  { label: 'Trigger' },
  { label: 'Status' },
  { label: 'Updated', align: 'right' },
  { label: 'Unchanged', align: 'right' },
  { label: 'Unmatched', align: 'right' },
  { label: 'Invalid', align: 'right' },
  { label: 'Ambiguous', align: 'right' },
  { label: 'Failure' },
];

export default function AdminSyncPage() {
  const client = useQueryClient();
  const runs = useQuery({ queryKey: runsKey, queryFn: fetchRuns });
  // The upcoming events, whose order links the sync fills (the list is paged: the next 200).
  const events = useQuery({
    queryKey: eventsKey,
    queryFn: () =>
      api.get<AdminEventList>('/api/admin/events?when=upcoming&pageSize=200').then((list) => list.events),
  });
  const [tracked, setTracked] = useState<Tracked | null>(null);
  // The sync queue's jobs: on arrival (a sync started by the schedule, the CLI or another tab keeps the
  // button busy too), then every second while one is followed. The sync's job is removed when it ends,
  // so "no longer listed" means finished; reading the list rather than the job avoids 404s in the console.
  // Each watch has its own key, so its answers were all fetched after it began.
  const watch = useQuery({
    queryKey: [...watchKey, tracked?.since ?? 'idle'],
    queryFn: () => api.get<JobList>(`/api/admin/jobs?queue=${SYNC_QUEUE}&limit=10`),
    refetchInterval: tracked ? POLL_MS : false,
  });
  const followed = tracked ? watch.data?.jobs.find((job) => job.id === tracked.jobId) : undefined;
  // The watch whose outcome was announced, and when: an older "running" answer must not revive it.
  const announced = useRef({ since: -1, at: 0 });

  useEffect(() => {
    const running = watch.data?.jobs.find((job) => job.id === SYNC_QUEUE && RUNNING_STATES.has(job.state));
    if (!tracked && running && watch.dataUpdatedAt > announced.current.at) {
      setTracked({ queue: SYNC_QUEUE, jobId: running.id, since: Date.now() });
    }
  }, [tracked, watch.data, watch.dataUpdatedAt]);

  const start = useAdminMutation({
    mutationFn: () => api.post<SyncStarted>('/api/sync-order-links'),
    onSuccess: ({ jobId, queue }) => setTracked({ queue, jobId, since: Date.now() }),
    failure: 'Sync failed',
    fallback: 'Unknown error occurred',
  });

  // The job has ended: say how it went, then show the new links and the new run.
  useEffect(() => {
    if (!tracked || !watch.isSuccess || announced.current.since === tracked.since) return;
    const fromJob = jobOutcome(followed);
    if (fromJob === 'running') return;
    announced.current = { since: tracked.since, at: Date.now() };
    void (async () => {
      const outcome =
        fromJob !== 'gone'
          ? fromJob
          : runOutcome(
              (
                await client
                  .fetchQuery({ queryKey: runsKey, queryFn: fetchRuns, staleTime: 0 })
                  .catch(() => null)
              )?.runs[0],
            );
      toast(outcomeToast(outcome));
      announced.current.at = Date.now();
      setTracked(null);
      await Promise.all(
        [runsKey, eventsKey, ['/api/events'], watchKey].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      );
    })();
  }, [tracked, watch.isSuccess, followed, client]);

  // A queue that cannot be read (session ended, server error) must not leave the button stuck.
  useEffect(() => {
    if (!tracked || !watch.isError) return;
    announced.current = { since: tracked.since, at: Date.now() };
    failureToast('Sync failed', watch.error, 'Unknown error occurred');
    setTracked(null);
  }, [watch.isError, watch.error, tracked]);

  const syncing = start.isPending || tracked !== null;
  const progress = typeof followed?.progress === 'number' ? followed.progress : null;
  const latest = runs.data?.runs[0];
  const toFix = latest?.result
    ? latest.result.unmatchedRows.length +
      latest.result.invalidRows.length +
      latest.result.ambiguousRows.length
    : 0;

  return (
    <AdminLayout title="Order Links Sync">
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <AdminSection
          id="sync-title"
          className={`${cardClass} p-6`}
          titleClassName="flex items-center gap-2 text-white"
          title={
            <>
              <FileSpreadsheet className="size-5 text-spotlight-400" aria-hidden /> Sync from the spreadsheet
            </>
          }
        >
          <p className="mt-3 text-sm text-zinc-300">
            The latest order links come from <strong className="text-white">column C</strong> of the
            competition-list spreadsheet. Syncing matches each row’s competition name (column A) to an event
            and updates the order links of matching events.
          </p>
          <p className="mt-3 text-sm text-zinc-400">
            The sync also runs on a schedule. Rows that match no event, or whose link is not a web address,
            are listed below so the sheet can be fixed.
          </p>
          {runs.data && !runs.data.configured && (
            <p className="mt-3 text-sm text-amber-300">
              No spreadsheet or CSV is configured yet, so syncing is not available.
            </p>
          )}
          <Button className="mt-5" onClick={() => start.mutate()} disabled={syncing} aria-busy={syncing}>
            <RefreshCw className={syncing ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
            {syncing ? 'Syncing...' : 'Sync Order Links Now'}
          </Button>
          {syncing && progress !== null && (
            <div
              className="mt-4 h-2 overflow-hidden rounded-full bg-white/10"
              role="progressbar"
              aria-label="Sync progress"
              aria-valuenow={Math.round(progress)}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div className="h-full bg-spotlight-400 transition-[width]" style={{ width: `${progress}%` }} />
            </div>
          )}
        </AdminSection>

        <AdminSection id="current-events" className={`${cardClass} p-6`} title="Current Events">
          <QueryState
            className="mt-3"
            query={events}
            error="Failed to fetch events"
            loading="Loading events..."
            empty={<p className="text-zinc-400">No events yet.</p>}
          >
            {(list) => (
              <ul className="-mt-1 divide-y divide-white/10">
                {list.map((event) => (
                  <li
                    key={event.id}
                    className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
                  >
                    <div className="min-w-0">
                      <p className="font-medium text-white">{event.title}</p>
                      <p className="flex items-center gap-1 text-sm text-zinc-400">
                        <MapPin className="size-3 shrink-0" aria-hidden /> {event.location}
                      </p>
                    </div>
                    {event.jotformUrl ? (
                      <Button asChild size="sm" variant="secondary">
                        <a href={event.jotformUrl} target="_blank" rel="noopener noreferrer">
                          Order Link <ExternalLink className="size-4" aria-hidden />
                        </a>
                      </Button>
                    ) : (
                      <span className="text-sm text-zinc-500">No order link</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
        </AdminSection>
      </div>

      {latest?.result && toFix > 0 && (
        <AdminSection
          id="to-fix"
          className="mt-8 rounded-2xl border border-amber-400/30 bg-amber-950/20 p-6"
          titleClassName="text-amber-200"
          title="Rows to check in the sheet (latest sync)"
        >
          <ul className="mt-3 space-y-1 text-sm break-words text-zinc-300">
            {latest.result.unmatchedRows.map((row) => (
              <li key={`u${row.row}`}>
                Row {row.row}: “{row.name}” matches no event
              </li>
            ))}
            {latest.result.ambiguousRows.map((row) => (
              <li key={`a${row.row}`}>
                Row {row.row}: “{row.name}” matches {row.eventIds.length} events
              </li>
            ))}
            {latest.result.invalidRows.map((row) => (
              <li key={`i${row.row}`}>
                Row {row.row}: “{row.name}”: {row.reason}
                {row.link ? ` (${row.link})` : ''}
              </li>
            ))}
          </ul>
        </AdminSection>
      )}

      <AdminSection id="history" className="mt-8" title="Recent syncs">
        <QueryTable
          label="Recent syncs"
          className="mt-3"
          query={runs}
          error="Failed to load sync history"
          fallback="Unknown error occurred"
          loading="Loading sync history..."
          rows={(history) => history.runs.slice(0, 10)}
          empty={<p className="text-zinc-400">No syncs yet.</p>}
          tableClassName="min-w-[44rem]"
          columns={historyColumns}
        >
          {(run) => (
            <TableRow key={run.id}>
              <TableCell className="whitespace-nowrap text-zinc-300">
                {formatDateTime(run.startedAt)}
              </TableCell>
              <TableCell className="text-zinc-400">{run.trigger}</TableCell>
              <TableCell>
                <Badge
                  variant={
                    run.status === 'failed' ? 'danger' : run.status === 'running' ? 'neutral' : 'success'
                  }
                >
                  {run.status}
                </Badge>
              </TableCell>
              {[
                run.result?.updatedCount,
                run.result?.unchanged,
                run.result?.unmatchedRows.length,
                run.result?.invalidRows.length,
                run.result?.ambiguousRows.length,
              ].map((count, column) => (
                <TableCell key={column} className="text-right text-zinc-300">
                  {count ?? '—'}
                </TableCell>
              ))}
              <TableCell className="max-w-xs text-red-300">{run.failureReason ?? ''}</TableCell>
            </TableRow>
          )}
        </QueryTable>
      </AdminSection>
    </AdminLayout>
  );
}
