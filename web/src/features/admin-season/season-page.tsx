import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { CompetitionPicker, useChosenCompetition } from '../admin-shell/competition-picker.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { useSeasonView } from './queries.ts';
import {
  EntriesPanel,
  FunnelPanel,
  SalesPanel,
  SearchMissesPanel,
  TopRoutinesPanel,
} from './season-panels.tsx';

/** /admin/season?showcase=<id>: the owner's season view of one competition (docs/decisions/034). */
export default function AdminSeasonPage() {
  const showcaseId = useChosenCompetition();
  const season = useSeasonView(showcaseId);
  return (
    <AdminLayout title="Season view">
      <div className="space-y-6">
        <CompetitionPicker path="/admin/season" />
        {showcaseId ? (
          <QueryState
            query={season}
            error="Error loading the season view"
            loading="Loading the season view..."
          >
            {(view) => (
              <div className="space-y-6">
                <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
                  <EntriesPanel view={view} />
                  <SalesPanel view={view} />
                </div>
                {/* The wide tables get the whole row: routine titles and fix links stay in sight. */}
                <TopRoutinesPanel view={view} />
                <FunnelPanel view={view} />
                <SearchMissesPanel view={view} />
              </div>
            )}
          </QueryState>
        ) : (
          <p className="text-zinc-400">
            Choose the showcase (one competition or show) whose entries, sales and searches you want to see.
          </p>
        )}
      </div>
    </AdminLayout>
  );
}
