import { useQuery } from '@tanstack/react-query';
import type { SeasonView } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';

export const seasonKey = (showcaseId: string) => ['/api/admin/showcases', showcaseId, 'season'] as const;

/** The season view of one showcase; refreshed each minute while open (sales and searches arrive). */
export const useSeasonView = (showcaseId: string) =>
  useQuery({
    queryKey: seasonKey(showcaseId),
    queryFn: () => api.get<SeasonView>(`/api/admin/showcases/${encodeURIComponent(showcaseId)}/season`),
    enabled: showcaseId !== '',
    refetchInterval: 60_000,
  });
