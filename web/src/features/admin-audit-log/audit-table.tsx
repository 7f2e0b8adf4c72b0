import type { UseQueryResult } from '@tanstack/react-query';
import { formatDateTime } from '@app/shared/format';
import type { AuditEntry } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { QueryTable } from '../admin-shell/query-state.tsx';

const actionLabels: Record<AuditEntry['action'], string> = {
  hide: 'Hidden',
  unhide: 'Published',
  delete: 'Deleted',
  takedown: 'Taken down',
  restore: 'Restored to buyers',
};

/** Who: the admin session is the owner; 'system' is a job acting on her earlier choice. */
const actorLabels: Record<string, string> = { owner: 'You', system: 'Automatic' };

const columns: TableColumn[] = [
  { label: 'When' },
  { label: 'What' },
  { label: 'Which' },
  { label: 'Who' },
  { label: 'Why' },
];

/** The audit log as a table: when, what, which video or showcase, who and why. */
export function AuditTable({ entries }: { entries: UseQueryResult<AuditEntry[]> }) {
  return (
    <QueryTable
      label="Audit log"
      query={entries}
      error="Failed to load the audit log"
      loading="Loading the audit log..."
      rows={(list) => list}
      empty={<p className="text-zinc-400">Nothing has been hidden, published, deleted or taken down yet.</p>}
      tableClassName="min-w-[48rem]"
      columns={columns}
    >
      {(entry) => (
        <TableRow key={entry.id}>
          <TableCell className="whitespace-nowrap text-zinc-400">{formatDateTime(entry.createdAt)}</TableCell>
          <TableCell>
            <Badge variant={entry.action === 'takedown' || entry.action === 'delete' ? 'danger' : 'neutral'}>
              {actionLabels[entry.action]}
            </Badge>
          </TableCell>
          <TableCell className="text-zinc-100">
            {entry.subjectName} <span className="text-xs text-zinc-500">({entry.subjectKind})</span>
          </TableCell>
          <TableCell className="text-zinc-300">{actorLabels[entry.actor] ?? entry.actor}</TableCell>
          <TableCell className="max-w-md text-zinc-300">{entry.reason ?? '—'}</TableCell>
        </TableRow>
      )}
    </QueryTable>
  );
}
