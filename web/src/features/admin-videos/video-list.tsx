import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MORE_VIDEOS_SLUG } from '@app/shared/library';
import type { AdminVideoList, AdminVideoListQuery } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { EmptyCard } from '../../components/ui/card.tsx';
import { CheckboxField, FilterSelect, SearchInput, Select } from '../../components/ui/input.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { api } from '../../lib/api.ts';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { processingRefetchInterval, StreamSweepButton } from '../video-processing/processing-status.tsx';
import { BulkActions } from './bulk-actions.tsx';
import { adminKeys } from '../admin-shell/query-keys.ts';
import type { AdminVideo, Showcase } from './shared.ts';
import { VideoRow } from './video-row.tsx';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

type Filters = Pick<AdminVideoListQuery, 'q' | 'showcase' | 'sort' | 'page'>;

const listUrl = ({ q, showcase, sort, page }: Filters) => {
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), sort });
  if (q) params.set('q', q);
  if (showcase) params.set('showcase', showcase);
  return `/api/admin/videos?${params.toString()}`;
};

/**
 * The owner's videos, searched and paged on the server (a library holds tens of thousands), with a
 * selection that bulk actions apply to. The selection is kept across pages and searches.
 */
export function VideoList({
  showcases,
  onEdit,
  onDelete,
  onAdd,
  onChanged,
}: {
  showcases: Showcase[];
  onEdit: (video: AdminVideo) => void;
  onDelete: (video: AdminVideo) => void;
  onAdd: () => void;
  onChanged: () => Promise<unknown>;
}) {
  const [text, setText] = useState('');
  const [filters, setFilters] = useState<Filters>({ sort: 'newest', page: 1 });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  useEffect(() => {
    const q = text.trim() || undefined;
    if (q === filters.q) return;
    const timer = setTimeout(
      () => setFilters((current) => ({ ...current, q, page: 1, sort: q ? 'relevance' : 'newest' })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text, filters.q]);

  const url = listUrl(filters);
  const list = useQuery({
    queryKey: adminKeys.videos.search(url),
    queryFn: () => api.get<AdminVideoList>(url),
    placeholderData: keepPreviousData,
    // While a video on this page is being processed, its state is read again every 2 s.
    refetchInterval: (query) => processingRefetchInterval({ state: { data: query.state.data?.videos } }),
  });
  const names = new Map(showcases.map((showcase) => [showcase.id, showcase.name]));
  const pageCount = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  const pageIds = list.data?.videos.map((video) => video.id) ?? [];
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const select = (ids: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });

  return (
    <AdminSection
      id="videos-heading"
      className="mt-10"
      title={
        <>
          Videos {list.data && <span className="text-sm font-normal text-zinc-400">({list.data.total})</span>}
        </>
      }
    >
      <div className="mt-4 flex flex-wrap gap-3">
        <SearchInput
          label="Search videos"
          placeholder="Search titles, descriptions, tags"
          className="w-72"
          value={text}
          onSearch={setText}
        />
        <FilterSelect
          label="Filter by showcase"
          className="w-56"
          value={filters.showcase ?? ''}
          onChange={(showcase) => setFilters({ ...filters, showcase: showcase || undefined, page: 1 })}
          anyLabel="All showcases"
          options={[
            ...showcases.map((showcase) => ({ value: showcase.id, label: showcase.name })),
            { value: MORE_VIDEOS_SLUG, label: 'No showcase' },
          ]}
        />
        <Select
          aria-label="Sort"
          className="w-44"
          value={filters.sort}
          onChange={(event) =>
            setFilters({ ...filters, sort: event.target.value as Filters['sort'], page: 1 })
          }
        >
          {filters.q && <option value="relevance">Best match</option>}
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
          <option value="title">Title A-Z</option>
        </Select>
        <StreamSweepButton />
      </div>
      {selected.size > 0 && (
        <BulkActions
          ids={[...selected]}
          showcases={showcases}
          onDone={onChanged}
          onClear={() => setSelected(new Set())}
        />
      )}
      <QueryState
        className="mt-4"
        query={list}
        error="Failed to load videos"
        loading="Loading videos..."
        isEmpty={(result) => result.videos.length === 0}
        empty={
          list.data?.total === 0 && !filters.q && !filters.showcase ? (
            <EmptyCard title="No videos added">
              <Button className="mt-4" onClick={onAdd}>
                Add First Video
              </Button>
            </EmptyCard>
          ) : (
            <p className="text-zinc-400">No videos match this search.</p>
          )
        }
      >
        {(result) => (
          <>
            <CheckboxField
              className="text-sm text-zinc-300"
              checked={allOnPage}
              onCheckedChange={(checked) => select(pageIds, checked)}
            >
              Select all {pageIds.length} on this page
            </CheckboxField>
            <ul className="mt-3 space-y-3">
              {result.videos.map((video) => (
                <VideoRow
                  key={video.id}
                  video={video}
                  showcaseName={video.showcaseId ? names.get(video.showcaseId) : undefined}
                  selected={selected.has(video.id)}
                  onSelect={(on) => select([video.id], on)}
                  onEdit={() => onEdit(video)}
                  onDelete={() => onDelete(video)}
                  onChanged={onChanged}
                />
              ))}
            </ul>
            <PageNav
              label="Video pages"
              page={filters.page}
              pageCount={pageCount}
              onPage={(page) => setFilters({ ...filters, page })}
            />
          </>
        )}
      </QueryState>
    </AdminSection>
  );
}
