import { useQuery } from '@tanstack/react-query';
import { formatEventDate } from '@app/shared/format';
import { SEARCH_MISS_DAYS } from '@app/shared/privacy';
import { TableCell, TableRow, type TableColumn } from '../../components/ui/table.tsx';
import { api } from '../../lib/api.ts';
import { searchMissListSchema, type SearchMissLine } from '../../lib/schemas.ts';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { QueryTable } from '../admin-shell/query-state.tsx';

// Read-only, and no other screen refreshes it: its one key stays here (decision 036).
const searchMissesKey = ['/api/admin/search-misses'] as const;

function useSearchMisses() {
  return useQuery({
    queryKey: searchMissesKey,
    queryFn: async () => searchMissListSchema.parse(await api.get('/api/admin/search-misses')),
  });
}

const sourceLabels: Record<SearchMissLine['source'], string> = {
  library: 'Video library',
  programme: 'Find your dancer',
};

const columns: TableColumn[] = [
  { label: 'Search' },
  { label: 'Where' },
  { label: 'Competition' },
  { label: 'Times', align: 'right' },
  { label: 'Last asked' },
];

/**
 * What visitors typed in the last 90 days that found nothing, across the site: most often a misspelt
 * name or an entry missing from a programme. The last day asked first, then the most asked.
 */
export default function AdminSearchMissesPage() {
  const misses = useSearchMisses();
  return (
    <AdminLayout
      title="Searches that found nothing"
      intro={
        <>
          What parents and dancers typed in the video library that found no video, and no routine, dancer or
          studio in the programmes as they typed it: most often a misspelt name or an entry missing from a
          programme. Only the words and a count per day are kept, for {SEARCH_MISS_DAYS} days; they may name a
          child, so they are shown here only.
        </>
      }
    >
      <QueryTable
        label="Searches that found nothing"
        query={misses}
        error="Failed to load the searches"
        loading="Loading the searches..."
        rows={(list) => list.misses}
        empty={
          <p className="text-zinc-400">No searches have come up empty in the last {SEARCH_MISS_DAYS} days.</p>
        }
        tableClassName="min-w-[40rem]"
        columns={columns}
      >
        {(miss) => (
          <TableRow key={`${miss.source} ${miss.showcaseId ?? ''} ${miss.query}`}>
            <TableCell className="font-semibold text-white">{miss.query}</TableCell>
            <TableCell className="text-zinc-300">{sourceLabels[miss.source]}</TableCell>
            <TableCell className="text-zinc-300">{miss.showcaseName ?? 'All competitions'}</TableCell>
            <TableCell className="text-right">{miss.count}</TableCell>
            <TableCell className="whitespace-nowrap text-zinc-400">{formatEventDate(miss.lastDay)}</TableCell>
          </TableRow>
        )}
      </QueryTable>
      {misses.data?.more && (
        <p className="mt-4 text-sm text-zinc-400">
          Showing the {misses.data.limit} most recent searches; older ones are not listed.
        </p>
      )}
    </AdminLayout>
  );
}
