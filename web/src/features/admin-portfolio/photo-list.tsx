import { portfolioCategoryLabels } from '@app/shared/constants';
import type { UseQueryResult } from '@tanstack/react-query';
import { portfolioCategories, type AdminPortfolioPhoto } from '../../lib/schemas.ts';
import { Card } from '../../components/ui/card.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { PhotoRow } from './photo-row.tsx';

/** The photos by category, in the gallery's order. */
export function PhotoList({
  photos,
  onSaved,
  onDelete,
}: {
  photos: UseQueryResult<AdminPortfolioPhoto[]>;
  onSaved: () => Promise<unknown>;
  onDelete: (photo: AdminPortfolioPhoto) => void;
}) {
  return (
    <QueryState
      className="mt-8"
      query={photos}
      error="Failed to fetch portfolio"
      loading="Loading photos..."
      empty={<Card className="p-10 text-center text-zinc-400">No photos yet. Upload the first ones.</Card>}
    >
      {(rows) =>
        portfolioCategories.map((value) => {
          const inCategory = rows.filter((photo) => photo.category === value);
          if (inCategory.length === 0) return null;
          return (
            <section key={value} aria-labelledby={`category-${value}`} className="mb-10">
              <h2 id={`category-${value}`} className="font-sans text-lg font-semibold text-white">
                {portfolioCategoryLabels[value]}{' '}
                <span className="text-sm text-zinc-400">({inCategory.length})</span>
              </h2>
              <p className="text-sm text-zinc-400">Lower order numbers appear first in the gallery.</p>
              <ul className="mt-3 divide-y divide-white/10">
                {inCategory.map((photo) => (
                  <PhotoRow key={photo.id} photo={photo} onSaved={onSaved} onDelete={() => onDelete(photo)} />
                ))}
              </ul>
            </section>
          );
        })
      }
    </QueryState>
  );
}
