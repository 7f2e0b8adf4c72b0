import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { formatDateTime } from '@app/shared/format';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { api } from '../../lib/api.ts';
import { waitingRoutineListSchema } from '../../lib/schemas.ts';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { QueryTable } from '../admin-shell/query-state.tsx';
import { entriesPath } from '../admin-programmes/entries-path.ts';

// Read-only, and no other screen refreshes it: its one key stays here (decision 036).
const waitingKey = ['/api/admin/online-alerts/waiting'] as const;

function useWaitingRoutines() {
  return useQuery({
    queryKey: waitingKey,
    queryFn: async () => waitingRoutineListSchema.parse(await api.get('/api/admin/online-alerts/waiting')),
  });
}

const columns: TableColumn[] = [
  { label: 'Competition' },
  { label: 'Entry' },
  { label: 'Routine' },
  { label: 'Studio' },
  { label: 'Waiting', align: 'right' },
  { label: 'Since' },
  { label: 'Video' },
];

/**
 * The routines visitors asked "tell me when it is online" about that are not online yet, most awaited
 * first: what to upload or publish next. Each is e-mailed once when its video goes online.
 */
export default function AdminWaitingRoutinesPage() {
  const waiting = useWaitingRoutines();
  return (
    <AdminLayout
      title="Waiting for videos"
      intro={
        <>
          Routines that parents and dancers asked to be told about, not online yet, the most awaited first. A
          request for a dancer counts on each of her routines, as any of them going online answers it. Only
          confirmed requests count; each gets one e-mail when a video is published, and the addresses are not
          shown here.
        </>
      }
    >
      <QueryTable
        label="Routines people are waiting for"
        query={waiting}
        error="Failed to load the waiting routines"
        loading="Loading the waiting routines..."
        rows={(list) => list.routines}
        empty={<p className="text-zinc-400">Nobody is waiting for a video right now.</p>}
        tableClassName="min-w-[48rem]"
        columns={columns}
      >
        {(routine) => (
          <TableRow key={routine.entryId}>
            <TableCell className="text-zinc-300">{routine.showcaseName}</TableCell>
            <TableCell className="font-semibold whitespace-nowrap">
              <Link
                href={entriesPath(routine.showcaseId, routine.entryNumber)}
                className="text-spotlight-300 hover:underline"
              >
                {routine.entryNumber}
                <span className="sr-only"> in the programme&apos;s entries</span>
              </Link>
            </TableCell>
            <TableCell>
              <span className="text-white">{routine.title || routine.section}</span>
              {routine.title && routine.section && (
                <span className="block text-xs text-zinc-400">{routine.section}</span>
              )}
            </TableCell>
            <TableCell className="text-zinc-300">{routine.studio ?? '—'}</TableCell>
            <TableCell className="text-right font-semibold text-white">{routine.waiting}</TableCell>
            <TableCell className="whitespace-nowrap text-zinc-400">{formatDateTime(routine.since)}</TableCell>
            <TableCell className="whitespace-nowrap text-zinc-300">
              {routine.hasVideo ? 'Not online yet' : 'No video'}
            </TableCell>
          </TableRow>
        )}
      </QueryTable>
      {waiting.data?.more && (
        <p className="mt-4 text-sm text-zinc-400">
          Showing the {waiting.data.limit} most awaited routines; fewer people wait for the others.
        </p>
      )}
    </AdminLayout>
  );
}
