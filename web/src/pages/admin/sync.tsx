import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, FileSpreadsheet, MapPin, RefreshCw } from 'lucide-react';
import { formatDateTime } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, api, errorMessage } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin/admin-layout.tsx';

const SYNC_QUEUE = 'sync-order-links';
const POLL_MS = 1_000;
/** BullMQ states in which the sync has not finished yet (delayed: waiting for a retry). */
const RUNNING_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

interface AdminEvent {
  id: number;
  title: string;
  location: string;
  date: string;
  jotformUrl: string | null;
}

interface SyncJob {
  id: string;
  queue: string;
  state: string;
  progress: unknown;
  result: unknown;
  failedReason: string | null;
}

/** A sheet row the sync could not use; the server's exact fields are read defensively. */
type SheetRow = Record<string, unknown> | string;

interface SyncRun {
  id: number | string;
  jobId?: string | null;
  trigger?: string | null;
  status?: string | null;
  startedAt?: string | null;
  finishedAt?: string | null;
  createdAt?: string | null;
  updatedCount?: number | null;
  unchanged?: number | null;
  unchangedCount?: number | null;
  unmatchedRows?: SheetRow[] | number | null;
  invalidRows?: SheetRow[] | number | null;
  ambiguousRows?: SheetRow[] | number | null;
  error?: string | null;
  failedReason?: string | null;
  result?: Partial<SyncResult> | null;
}

interface SyncResult {
  updatedCount: number;
  unchanged: number;
  unmatchedRows: SheetRow[] | number;
  invalidRows: SheetRow[] | number;
  ambiguousRows: SheetRow[] | number;
}

const eventsKey = ['/api/admin/events'];
const runsKey = ['/api/admin/sync-runs'];
const jobsKey = ['/api/admin/jobs', SYNC_QUEUE, 'running'];

/** The run's counts, whether the server keeps them as columns or as the job's result object. */
function runResult(run: SyncRun): Partial<SyncResult> {
  return { ...run.result, ...definedOnly(run) };
}
function definedOnly(run: SyncRun): Partial<SyncResult> {
  const picked: Partial<SyncResult> = {};
  if (typeof run.updatedCount === 'number') picked.updatedCount = run.updatedCount;
  const unchanged = run.unchanged ?? run.unchangedCount;
  if (typeof unchanged === 'number') picked.unchanged = unchanged;
  if (run.unmatchedRows != null) picked.unmatchedRows = run.unmatchedRows;
  if (run.invalidRows != null) picked.invalidRows = run.invalidRows;
  if (run.ambiguousRows != null) picked.ambiguousRows = run.ambiguousRows;
  return picked;
}
const count = (rows: SheetRow[] | number | undefined) =>
  typeof rows === 'number' ? rows : (rows?.length ?? 0);
const runFailure = (run: SyncRun) => run.error ?? run.failedReason ?? null;
const runStatus = (run: SyncRun) =>
  run.status ?? (runFailure(run) ? 'failed' : run.finishedAt ? 'completed' : 'running');
const runTime = (run: SyncRun) => run.startedAt ?? run.createdAt ?? run.finishedAt ?? null;

/** One unusable row as text: its sheet row number, the name, the link and why it was skipped. */
function describeRow(row: SheetRow): { where: string; text: string } {
  if (typeof row === 'string') return { where: '', text: row };
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = row[key];
      if (typeof value === 'string' || typeof value === 'number') return String(value);
    }
    return '';
  };
  const where = pick('row', 'rowNumber', 'line');
  const name = pick('name', 'title', 'competition');
  const link = pick('link', 'url', 'orderLink', 'value');
  const reason = pick('reason', 'message', 'error');
  const matches = Array.isArray(row.matches) ? ` (matches ${row.matches.length} events)` : '';
  return {
    where,
    text:
      [name || '(no name)', link && `→ ${link}`, reason && `— ${reason}`].filter(Boolean).join(' ') + matches,
  };
}

function useSyncJob(tracked: { queue: string; jobId: string } | null) {
  return useQuery({
    queryKey: ['/api/admin/jobs', tracked?.queue, tracked?.jobId],
    enabled: tracked !== null,
    queryFn: async (): Promise<SyncJob | 'gone'> => {
      try {
        return await api.get<SyncJob>(
          `/api/admin/jobs/${tracked!.queue}/${encodeURIComponent(tracked!.jobId)}`,
        );
      } catch (error) {
        // The sync job is removed once it ends (so the next run can start); its outcome is in the runs table.
        if (error instanceof ApiError && error.status === 404) return 'gone';
        throw error;
      }
    },
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && data !== 'gone' && !RUNNING_STATES.has(data.state) ? false : POLL_MS;
    },
    gcTime: 0,
  });
}

export default function AdminSyncPage() {
  const client = useQueryClient();
  const events = useQuery({ queryKey: eventsKey, queryFn: () => api.get<AdminEvent[]>('/api/admin/events') });
  const runs = useQuery({
    queryKey: runsKey,
    queryFn: () => api.get<SyncRun[]>('/api/admin/sync-runs?limit=10'),
  });
  // A sync started elsewhere (the schedule, the CLI, another tab) also keeps the button busy.
  const running = useQuery({
    queryKey: jobsKey,
    queryFn: () => api.get<{ jobs: SyncJob[] }>(`/api/admin/jobs?queue=${SYNC_QUEUE}&limit=5`),
    select: (data) => data.jobs.find((job) => RUNNING_STATES.has(job.state)) ?? null,
  });
  const [tracked, setTracked] = useState<{ queue: string; jobId: string } | null>(null);
  const job = useSyncJob(tracked);
  const finishing = useRef(false);

  useEffect(() => {
    if (!tracked && running.data) setTracked({ queue: SYNC_QUEUE, jobId: running.data.id });
  }, [tracked, running.data]);

  const start = useMutation({
    mutationFn: () => api.post<{ jobId: string; queue: string }>('/api/sync-order-links'),
    onSuccess: ({ jobId, queue }) => {
      finishing.current = false;
      setTracked({ queue, jobId });
    },
    onError: (error) =>
      toast({
        title: 'Sync failed',
        description: errorMessage(error, 'Unknown error occurred'),
        variant: 'destructive',
      }),
  });

  // The job has ended: say how it went, then show the new links and the new run.
  useEffect(() => {
    const data = job.data;
    if (!tracked || !data || finishing.current) return;
    if (data !== 'gone' && RUNNING_STATES.has(data.state)) return;
    finishing.current = true;
    void (async () => {
      let outcome: { ok: true; updated: number } | { ok: false; reason: string | null };
      if (data === 'gone') {
        const latest = await client.fetchQuery({
          queryKey: runsKey,
          queryFn: () => api.get<SyncRun[]>('/api/admin/sync-runs?limit=10'),
          staleTime: 0,
        });
        const run = latest.find((item) => item.jobId === tracked.jobId) ?? latest[0];
        outcome =
          run && runStatus(run) === 'failed'
            ? { ok: false, reason: runFailure(run) }
            : { ok: true, updated: run ? (runResult(run).updatedCount ?? 0) : 0 };
      } else if (data.state === 'completed') {
        const result = (data.result ?? {}) as Partial<SyncResult>;
        outcome = { ok: true, updated: result.updatedCount ?? 0 };
      } else {
        outcome = { ok: false, reason: data.failedReason };
      }
      if (outcome.ok) {
        toast({
          title: 'Order links synced successfully!',
          description: `Updated ${outcome.updated} events with new order links.`,
          variant: 'success',
        });
      } else {
        toast({
          title: 'Sync failed',
          description: outcome.reason || 'Unknown error occurred',
          variant: 'destructive',
        });
      }
      setTracked(null);
      await Promise.all([
        client.invalidateQueries({ queryKey: eventsKey }),
        client.invalidateQueries({ queryKey: ['/api/events'] }),
        client.invalidateQueries({ queryKey: runsKey }),
        client.invalidateQueries({ queryKey: jobsKey }),
      ]);
    })();
  }, [job.data, tracked, client]);

  // A job we cannot read any more (lost session, server error) must not leave the button stuck.
  useEffect(() => {
    if (!tracked || !job.isError) return;
    toast({
      title: 'Sync failed',
      description: errorMessage(job.error, 'Unknown error occurred'),
      variant: 'destructive',
    });
    setTracked(null);
  }, [job.isError, job.error, tracked]);

  const syncing = start.isPending || tracked !== null;
  const progress =
    job.data && job.data !== 'gone' && typeof job.data.progress === 'number' ? job.data.progress : null;
  const latest = runs.data?.[0];
  const latestResult = latest ? runResult(latest) : null;
  const problems = latestResult
    ? [
        { title: 'Unmatched rows', rows: latestResult.unmatchedRows },
        { title: 'Invalid rows', rows: latestResult.invalidRows },
        { title: 'Ambiguous rows', rows: latestResult.ambiguousRows },
      ].filter((group) => count(group.rows) > 0)
    : [];

  return (
    <AdminLayout title="Order Links Sync">
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <FileSpreadsheet className="size-5 text-spotlight-400" aria-hidden /> Sync order links
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-4 text-sm text-zinc-300">
            <p>
              The latest order links come from <strong className="text-white">column C</strong> of the
              competition-list spreadsheet. Each row's competition name (column A) is matched to an event with
              the same title, and the event's order link is updated when it has changed.
            </p>
            <p className="text-zinc-400">
              The sync also runs on its own schedule. Rows that match no event, or whose link is not a web
              address, are listed below so the spreadsheet can be fixed.
            </p>
            <Button onClick={() => start.mutate()} disabled={syncing} aria-busy={syncing}>
              <RefreshCw className={syncing ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
              {syncing ? 'Syncing...' : 'Sync Order Links Now'}
            </Button>
            {syncing && progress !== null && (
              <div
                className="h-2 overflow-hidden rounded-full bg-white/10"
                role="progressbar"
                aria-label="Sync progress"
                aria-valuenow={Math.round(progress)}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div
                  className="h-full bg-spotlight-400 transition-[width]"
                  style={{ width: `${progress}%` }}
                />
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Current Events</CardTitle>
          </CardHeader>
          <CardContent>
            {events.isError ? (
              <p className="text-red-300">{errorMessage(events.error, 'Failed to fetch events')}</p>
            ) : events.isPending ? (
              <p className="text-zinc-400">Loading events...</p>
            ) : events.data.length === 0 ? (
              <p className="text-zinc-400">No events yet.</p>
            ) : (
              <ul className="divide-y divide-white/10">
                {events.data.map((event) => (
                  <li key={event.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                    <div className="min-w-0">
                      <p className="font-medium text-white">{event.title}</p>
                      <p className="flex items-center gap-1 text-sm text-zinc-400">
                        <MapPin className="size-3" aria-hidden /> {event.location}
                      </p>
                    </div>
                    {event.jotformUrl ? (
                      <Button asChild size="sm" variant="secondary">
                        <a
                          href={event.jotformUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          aria-label={`Order Link for ${event.title}`}
                        >
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
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="sync-runs" className="mt-10">
        <h2 id="sync-runs" className="font-sans text-lg font-semibold text-white">
          Recent syncs
        </h2>
        {runs.isError ? (
          <p className="mt-4 text-red-300">
            Failed to load sync history: {errorMessage(runs.error, 'Unknown error occurred')}
          </p>
        ) : runs.isPending ? (
          <p className="mt-4 text-zinc-400">Loading sync history...</p>
        ) : runs.data.length === 0 ? (
          <p className="mt-4 text-zinc-400">No syncs have run yet.</p>
        ) : (
          <div className="mt-4 overflow-x-auto rounded-2xl border border-white/10">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead className="bg-stage-800 text-xs tracking-wider text-zinc-400 uppercase">
                <tr>
                  <th className="px-4 py-3">When</th>
                  <th className="px-4 py-3">Trigger</th>
                  <th className="px-4 py-3">Status</th>
                  <th className="px-4 py-3 text-right">Updated</th>
                  <th className="px-4 py-3 text-right">Unchanged</th>
                  <th className="px-4 py-3 text-right">Unmatched</th>
                  <th className="px-4 py-3 text-right">Invalid</th>
                  <th className="px-4 py-3">Failure</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/10">
                {runs.data.slice(0, 10).map((run) => {
                  const result = runResult(run);
                  const status = runStatus(run);
                  const when = runTime(run);
                  return (
                    <tr key={run.id} className="bg-stage-900/60">
                      <td className="px-4 py-3 whitespace-nowrap text-zinc-300">
                        {when ? formatDateTime(when) : '—'}
                      </td>
                      <td className="px-4 py-3 text-zinc-300">{run.trigger ?? '—'}</td>
                      <td className="px-4 py-3">
                        <Badge
                          variant={
                            status === 'failed' ? 'danger' : status === 'running' ? 'default' : 'success'
                          }
                        >
                          {status}
                        </Badge>
                      </td>
                      <td className="px-4 py-3 text-right text-zinc-300">{result.updatedCount ?? '—'}</td>
                      <td className="px-4 py-3 text-right text-zinc-300">{result.unchanged ?? '—'}</td>
                      <td className="px-4 py-3 text-right text-zinc-300">{count(result.unmatchedRows)}</td>
                      <td className="px-4 py-3 text-right text-zinc-300">{count(result.invalidRows)}</td>
                      <td className="max-w-xs px-4 py-3 text-red-300">{runFailure(run) ?? ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {problems.length > 0 && (
        <section aria-labelledby="sync-problems" className="mt-10">
          <h2 id="sync-problems" className="font-sans text-lg font-semibold text-white">
            Rows to fix in the spreadsheet (latest sync)
          </h2>
          <div className="mt-4 grid gap-6 md:grid-cols-2">
            {problems.map((group) => (
              <Card key={group.title}>
                <CardHeader>
                  <CardTitle className="text-base">
                    {group.title} <Badge variant="neutral">{count(group.rows)}</Badge>
                  </CardTitle>
                </CardHeader>
                <CardContent>
                  {Array.isArray(group.rows) ? (
                    <ul className="space-y-2 text-sm text-zinc-300">
                      {group.rows.map((row, index) => {
                        const { where, text } = describeRow(row);
                        return (
                          <li key={index} className="break-words">
                            {where && <span className="mr-2 text-zinc-500">Row {where}</span>}
                            {text}
                          </li>
                        );
                      })}
                    </ul>
                  ) : (
                    <p className="text-sm text-zinc-400">{group.rows} rows</p>
                  )}
                </CardContent>
              </Card>
            ))}
          </div>
        </section>
      )}
    </AdminLayout>
  );
}
