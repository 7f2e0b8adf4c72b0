import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, RotateCcw } from 'lucide-react';
import { formatDateTime } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Select } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin/admin-layout.tsx';

export interface JobSummary {
  id: string;
  queue: string;
  name: string;
  state: string;
  progress: unknown;
  attemptsMade: number;
  attempts: number;
  result: unknown;
  failedReason: string | null;
  createdAt: string;
  processedAt: string | null;
  finishedAt?: string | null;
}

const stateColour: Record<string, 'success' | 'danger' | 'neutral' | 'default'> = {
  completed: 'success',
  failed: 'danger',
  active: 'default',
};

export default function AdminJobsPage() {
  const client = useQueryClient();
  const [queue, setQueue] = useState('');
  const [state, setState] = useState('');
  const query = new URLSearchParams({ ...(queue && { queue }), ...(state && { state }), limit: '100' });
  const jobs = useQuery({
    queryKey: ['/api/admin/jobs', queue, state],
    queryFn: () => api.get<{ jobs: JobSummary[]; queues: string[] }>(`/api/admin/jobs?${query}`),
    refetchInterval: 5_000,
  });
  const retry = useMutation({
    mutationFn: (job: JobSummary) =>
      api.post(`/api/admin/jobs/${job.queue}/${encodeURIComponent(job.id)}/retry`),
    onSuccess: () => {
      toast({ title: 'Job queued to run again', variant: 'success' });
      void client.invalidateQueries({ queryKey: ['/api/admin/jobs'] });
    },
    onError: (error) =>
      toast({
        title: 'Retry failed',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
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
      <div className="flex flex-wrap gap-3">
        <Select
          aria-label="Queue"
          className="w-56"
          value={queue}
          onChange={(event) => setQueue(event.target.value)}
        >
          <option value="">All queues</option>
          {(jobs.data?.queues ?? []).map((name) => (
            <option key={name}>{name}</option>
          ))}
        </Select>
        <Select
          aria-label="State"
          className="w-44"
          value={state}
          onChange={(event) => setState(event.target.value)}
        >
          <option value="">Any state</option>
          {['waiting', 'active', 'delayed', 'completed', 'failed'].map((name) => (
            <option key={name}>{name}</option>
          ))}
        </Select>
      </div>
      {jobs.isError ? (
        <p className="mt-6 text-red-300">
          Failed to load jobs: {errorMessage(jobs.error, 'An unknown error occurred')}
        </p>
      ) : jobs.isPending ? (
        <p className="mt-6 text-zinc-400">Loading jobs...</p>
      ) : jobs.data.jobs.length === 0 ? (
        <p className="mt-6 text-zinc-400">No jobs match.</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-2xl border border-white/10">
          <table className="w-full text-left text-sm">
            <thead className="bg-stage-800 text-xs tracking-wider text-zinc-400 uppercase">
              <tr>
                <th className="px-4 py-3">Job</th>
                <th className="px-4 py-3">State</th>
                <th className="px-4 py-3">Attempts</th>
                <th className="px-4 py-3">Queued</th>
                <th className="px-4 py-3">Result or failure</th>
                <th className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/10">
              {jobs.data.jobs.map((job) => (
                <tr key={`${job.queue}:${job.id}`} className="bg-stage-900/60">
                  <td className="px-4 py-3">
                    <div className="font-medium text-white">{job.queue}</div>
                    <div className="text-xs break-all text-zinc-500">{job.id}</div>
                  </td>
                  <td className="px-4 py-3">
                    <Badge variant={stateColour[job.state] ?? 'neutral'}>{job.state}</Badge>
                  </td>
                  <td className="px-4 py-3 text-zinc-300">
                    {job.attemptsMade} / {job.attempts}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-zinc-400">
                    {formatDateTime(job.createdAt)}
                  </td>
                  <td className="max-w-md px-4 py-3 text-zinc-300">
                    {job.failedReason ? (
                      <span className="text-red-300">{job.failedReason}</span>
                    ) : job.result ? (
                      JSON.stringify(job.result)
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="px-4 py-3">
                    {job.state === 'failed' && (
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(job)}
                      >
                        <RotateCcw className="size-4" aria-hidden /> Retry
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminLayout>
  );
}
