import { useId } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import type { AdminShowcase } from '@app/shared/schemas';
import { FilterSelect } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { adminKeys } from './query-keys.ts';

/**
 * The competition (showcase) a screen works on, kept in its address as `?showcase=<id>` so a reload or a
 * shared link opens the same one: the programme, the competition upload and the season view.
 */
export function useChosenCompetition(): string {
  return new URLSearchParams(useSearch()).get('showcase') ?? '';
}

/** The owner's showcases (competitions and shows), as the admin screens list them. */
export const useAdminShowcases = () =>
  useQuery({
    queryKey: adminKeys.showcases,
    queryFn: () => api.get<AdminShowcase[]>('/api/admin/showcases'),
  });

/** The labelled "Competition" select of those screens; choosing one changes the address. */
export function CompetitionPicker({ path }: { path: string }) {
  const id = useId();
  const showcaseId = useChosenCompetition();
  const [, navigate] = useLocation();
  const showcases = useAdminShowcases();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <label htmlFor={id} className="text-sm text-zinc-300">
        Competition
      </label>
      <FilterSelect
        id={id}
        label="Competition"
        className="w-full sm:w-[28rem]"
        value={showcaseId}
        onChange={(chosen) => navigate(chosen ? `${path}?showcase=${encodeURIComponent(chosen)}` : path)}
        anyLabel="Choose a showcase"
        options={(showcases.data ?? []).map((showcase) => ({ value: showcase.id, label: showcase.name }))}
      />
    </div>
  );
}
