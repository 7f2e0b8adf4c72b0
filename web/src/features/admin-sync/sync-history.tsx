import type { UseQueryResult } from '@tanstack/react-query';
import { formatDateTime } from '@app/shared/format';
import type { SyncRunsResponse } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { QueryTable } from '../admin-shell/query-state.tsx';

type SyncRun = SyncRunsResponse['runs'][number];

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

/** The latest sync's rows that matched no event, several, or gave no web address, to fix in the sheet. */
export function RowsToFix({ latest }: { latest: SyncRun | undefined }) {
  const toFix = latest?.result
    ? latest.result.unmatchedRows.length +
      latest.result.invalidRows.length +
      latest.result.ambiguousRows.length
    : 0;
  if (!latest?.result || toFix === 0) return null;
  return (
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
  );
}

/** The last ten syncs: when, how started, how it went and what it counted. */
export function SyncHistory({ runs }: { runs: UseQueryResult<SyncRunsResponse> }) {
  return (
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
            <TableCell className="whitespace-nowrap text-zinc-300">{formatDateTime(run.startedAt)}</TableCell>
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
  );
}
