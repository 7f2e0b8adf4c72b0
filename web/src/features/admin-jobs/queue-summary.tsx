import { cardClass } from '../../components/ui/card.tsx';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { SUMMARY_LIMIT, useRecentJobs } from './queries.ts';

const summaryStates = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/** Counts per queue and state over the most recent jobs (the api lists jobs, it does not count them). */
export function QueueSummary() {
  const recent = useRecentJobs();
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
