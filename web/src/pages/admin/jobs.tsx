import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, RotateCcw } from 'lucide-react';
import { formatDateTime } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { FilterSelect } from '../../components/ui/input.tsx';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { useAdminMutation } from '../../features/admin-shell/admin-mutation.ts';
import { AdminSection } from '../../features/admin-shell/admin-section.tsx';
import { QueryTable } from '../../features/admin-shell/query-state.tsx';
import { RowActionButton } from '../../features/admin-shell/row-actions.tsx';
import type { JobList, JobSummary } from '@app/shared/schemas';

const stateColour: Record<string, 'success' | 'danger' | 'neutral' | 'default'> = {
  completed: 'success',
  failed: 'danger',
  active: 'default',
};

/** How long the last attempt took, or how long it has been running. */
function ranFor(job: JobSummary): string {
  if (!job.processedAt) return '—';
  const end = job.finishedAt ? Date.parse(job.finishedAt) : Date.now();
  const ms = Math.max(0, end - Date.parse(job.processedAt));
  const text =
    ms < 1_000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1_000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
  return job.finishedAt ? text : `${text} so far`;
}

const jobColumns: TableColumn[] = [
  { label: 'Job' },
  { label: 'State' },
  { label: 'Attempts' },
  { label: 'Queued' },
  { label: 'Ran' },
  { label: 'Result or failure' },
  { label: 'Actions', hidden: true },
];

const SUMMARY_LIMIT = 200;
const summaryStates = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/** Counts per queue and state over the most recent jobs (the api lists jobs, it does not count them). */
function QueueSummary() {
  const recent = useQuery({
    queryKey: ['/api/admin/jobs', 'summary'],
    queryFn: () => api.get<JobList>(`/api/admin/jobs?limit=${SUMMARY_LIMIT}`),
    refetchInterval: 5_000,
  });
  if (!recent.data) return null;
  const counts = new Map(recent.data.queues.map((queue) => [queue, new Map<string, number>()]));
  for (const job of recent.data.jobs) {
    const byState = counts.get(job.queue);
    byState?.set(job.state, (byState.get(job.state) ?? 0) + 1);
  }
  return (
    <AdminSection id="queue-summary" className="mb-8" title="Queues">
      <p className="text-sm text-zinc-400">Counts over the latest {SUMMARY_LIMIT} jobs.</p>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[...counts].map(([queue, byState]) => (
          <li key={queue} className={`${cardClass} p-4`}>
            <p className="font-medium text-white">{queue}</p>
            <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {summaryStates.map((state) => (
                <div key={state} className="flex gap-1">
                  <dt className="text-zinc-400">{state}</dt>
                  <dd
                    className={
                      state === 'failed' && byState.get(state)
                        ? 'font-semibold text-red-300'
                        : 'text-zinc-200'
                    }
                  >
                    {byState.get(state) ?? 0}
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </AdminSection>
  );
}

export default function AdminJobsPage() {
  const client = useQueryClient();
  const [queue, setQueue] = useState('');
  const [state, setState] = useState('');
  const query = new URLSearchParams({ ...(queue && { queue }), ...(state && { state }), limit: '100' });
  const jobs = useQuery({
    queryKey: ['/api/admin/jobs', queue, state],
    queryFn: () => api.get<JobList>(`/api/admin/jobs?${query}`),
    refetchInterval: 5_000,
  });
  const retry = useAdminMutation({
    mutationFn: (job: JobSummary) =>
      api.post(`/api/admin/jobs/${job.queue}/${encodeURIComponent(job.id)}/retry`),
    success: 'Job queued to run again',
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/jobs'] }),
    failure: 'Retry failed',
  });

  return (
    <AdminLayout
      title="Jobs"
      actions={
        <Button asChild size="sm" variant="secondary">
          <a href="/admin/queues" target="_blank" rel="noopener noreferrer">
            Queue dashboard <ExternalLink className="size-4" aria-hidden />
          </a>
        </Button>
      }
    >
      <QueueSummary />
      <div className="flex flex-wrap gap-3">
        <FilterSelect
          label="Queue"
          className="w-56"
          value={queue}
          onChange={setQueue}
          anyLabel="All queues"
          options={jobs.data?.queues ?? []}
        />
        <FilterSelect
          label="State"
          className="w-44"
          value={state}
          onChange={setState}
          anyLabel="Any state"
          options={['waiting', 'active', 'delayed', 'completed', 'failed']}
        />
      </div>
      <QueryTable
        label="Jobs"
        className="mt-6"
        query={jobs}
        error="Failed to load jobs"
        loading="Loading jobs..."
        rows={(list) => list.jobs}
        empty={<p className="text-zinc-400">No jobs match.</p>}
        tableClassName="min-w-[60rem]"
        columns={jobColumns}
      >
        {(job) => (
          <TableRow key={`${job.queue}:${job.id}`}>
            <TableCell className="min-w-[16rem]">
              <div className="font-medium text-white">{job.queue}</div>
              <div className="text-xs break-all text-zinc-500">{job.id}</div>
            </TableCell>
            <TableCell>
              <Badge variant={stateColour[job.state] ?? 'neutral'}>
                {job.state}
                {job.state === 'active' && typeof job.progress === 'number' && ` ${job.progress}%`}
              </Badge>
            </TableCell>
            <TableCell className="text-zinc-300">
              {job.attemptsMade} / {job.attempts}
            </TableCell>
            <TableCell className="whitespace-nowrap text-zinc-400">{formatDateTime(job.createdAt)}</TableCell>
            <TableCell className="whitespace-nowrap text-zinc-400">{ranFor(job)}</TableCell>
            <TableCell className="max-w-md text-zinc-300">
              {job.failedReason ? (
                <span className="text-red-300">{job.failedReason}</span>
              ) : job.result ? (
                JSON.stringify(job.result)
              ) : (
                '—'
              )}
            </TableCell>
            <TableCell>
              {job.state === 'failed' && (
                <RowActionButton icon={RotateCcw} busy={retry.isPending} onClick={() => retry.mutate(job)}>
                  Retry
                </RowActionButton>
              )}
            </TableCell>
          </TableRow>
        )}
      </QueryTable>
    </AdminLayout>
  );
}
