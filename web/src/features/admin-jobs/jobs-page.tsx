import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { FilterSelect } from '../../components/ui/input.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { JobTable } from './job-table.tsx';
import { useJobs } from './queries.ts';
import { QueueSummary } from './queue-summary.tsx';

export default function AdminJobsPage() {
  const [queue, setQueue] = useState('');
  const [state, setState] = useState('');
  const jobs = useJobs(queue, state);

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
      <JobTable jobs={jobs} />
    </AdminLayout>
  );
}
