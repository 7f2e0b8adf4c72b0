import type { UseQueryResult } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { formatDateTime } from '@app/shared/format';
import type { JobList, JobSummary } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { QueryTable } from '../admin-shell/query-state.tsx';
import { RowActionButton } from '../admin-shell/row-actions.tsx';
import { useRetryJob } from './queries.ts';

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

/** The jobs as a table: queue and id, state, attempts, times, result or failure, and retry for a failed one. */
export function JobTable({ jobs }: { jobs: UseQueryResult<JobList> }) {
  const retry = useRetryJob();
  return (
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
  );
}
