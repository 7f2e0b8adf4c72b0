import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { JobList, JobSummary } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';

export const SUMMARY_LIMIT = 200;

/** The most recent jobs of every queue, which the summary counts (the api lists jobs, it does not count them). */
export function useRecentJobs() {
  return useQuery({
    queryKey: adminKeys.jobs.summary(),
    queryFn: () => api.get<JobList>(`/api/admin/jobs?limit=${SUMMARY_LIMIT}`),
    refetchInterval: 5_000,
  });
}

/** The latest 100 jobs of a queue and state ('' for any), every 5 s. */
export function useJobs(queue: string, state: string) {
  const query = new URLSearchParams({ ...(queue && { queue }), ...(state && { state }), limit: '100' });
  return useQuery({
    queryKey: adminKeys.jobs.list(queue, state),
    queryFn: () => api.get<JobList>(`/api/admin/jobs?${query}`),
    refetchInterval: 5_000,
  });
}

export function useRetryJob() {
  const client = useQueryClient();
  return useAdminMutation({
    mutationFn: (job: JobSummary) =>
      api.post(`/api/admin/jobs/${job.queue}/${encodeURIComponent(job.id)}/retry`),
    success: 'Job queued to run again',
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.jobs.all }),
    failure: 'Retry failed',
  });
}
