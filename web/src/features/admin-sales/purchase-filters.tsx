import { purchaseStatuses } from '@app/shared/constants';
import { FilterSelect, Input } from '../../components/ui/input.tsx';
import { useNewestVideos } from './queries.ts';

export interface PurchaseFilters {
  status: string;
  videoId: string;
  q: string;
  from: string;
  to: string;
}

/** Status, video, buyer or video search, and the dates: what the list, its totals and the CSV cover. */
export function PurchaseFilterBar({
  filters,
  onChange,
}: {
  filters: PurchaseFilters;
  onChange: (name: keyof PurchaseFilters, value: string) => void;
}) {
  const videos = useNewestVideos();
  return (
    <div className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
      <FilterSelect
        label="Status"
        value={filters.status}
        onChange={(status) => onChange('status', status)}
        anyLabel="Any status"
        options={purchaseStatuses}
      />
      <FilterSelect
        label="Video"
        value={filters.videoId}
        onChange={(videoId) => onChange('videoId', videoId)}
        anyLabel="Any video"
        options={(videos.data?.videos ?? []).map((video) => ({ value: video.id, label: video.title }))}
      />
      <Input
        aria-label="Search buyer or video"
        placeholder="Search buyer or video"
        value={filters.q}
        onChange={(event) => onChange('q', event.target.value)}
      />
      <Input
        aria-label="From date"
        type="date"
        value={filters.from}
        onChange={(event) => onChange('from', event.target.value)}
      />
      <Input
        aria-label="To date"
        type="date"
        value={filters.to}
        onChange={(event) => onChange('to', event.target.value)}
      />
    </div>
  );
}
