import { ArrowDown, ArrowUp, Eye, EyeOff } from 'lucide-react';
import type { AdminTestimonial } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { EditDeleteButtons } from '../admin-shell/row-actions.tsx';
import { useReorderTestimonials, useShowTestimonial } from './queries.ts';

/** The testimonials in home page order: move up or down, show or hide, edit or delete each. */
export function TestimonialList({
  rows,
  onChanged,
  onEdit,
  onDelete,
}: {
  rows: AdminTestimonial[];
  onChanged: () => Promise<unknown>;
  onEdit: (row: AdminTestimonial) => void;
  onDelete: (row: AdminTestimonial) => void;
}) {
  const reorder = useReorderTestimonials(onChanged);
  const setShown = useShowTestimonial(onChanged);
  const move = (index: number, by: -1 | 1) => {
    const ids = rows.map((row) => row.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids);
  };
  const shown = rows.filter((row) => row.published).length;
  return (
    <>
      <p className="text-sm text-zinc-300">
        {shown} of {rows.length} shown on the home page
      </p>
      <ol className="mt-2 space-y-3" aria-label="Testimonials in home page order">
        {rows.map((row, index) => (
          <li
            key={row.id}
            className={`${cardClass} flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:gap-4`}
          >
            <figure className="min-w-0 flex-1">
              <blockquote className="text-zinc-100">“{row.quote}”</blockquote>
              <figcaption className="mt-2 flex flex-wrap items-center gap-2 text-sm text-spotlight-300">
                {row.name}
                {row.event && <span className="text-zinc-400">· {row.event}</span>}
                {!row.published && (
                  <Badge variant="neutral">
                    <EyeOff className="size-3" aria-hidden /> Hidden
                  </Badge>
                )}
              </figcaption>
            </figure>
            <div className="flex shrink-0 flex-wrap gap-1">
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Move ${row.name} up`}
                disabled={index === 0 || reorder.isPending}
                onClick={() => move(index, -1)}
              >
                <ArrowUp className="size-4" aria-hidden />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Move ${row.name} down`}
                disabled={index === rows.length - 1 || reorder.isPending}
                onClick={() => move(index, 1)}
              >
                <ArrowDown className="size-4" aria-hidden />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`${row.published ? 'Hide' : 'Show'} ${row.name}`}
                disabled={setShown.isPending}
                onClick={() => setShown.mutate({ id: row.id, published: !row.published })}
              >
                {row.published ? (
                  <EyeOff className="size-4" aria-hidden />
                ) : (
                  <Eye className="size-4" aria-hidden />
                )}
              </Button>
              <EditDeleteButtons name={row.name} onEdit={() => onEdit(row)} onDelete={() => onDelete(row)} />
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
