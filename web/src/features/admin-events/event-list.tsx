import { ExternalLink, MapPin } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatEventDate } from '@app/shared/format';
import type { AdminEvent, AdminEventList } from '@app/shared/schemas';
import { Card, cardClass } from '../../components/ui/card.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { EditDeleteButtons } from '../admin-shell/row-actions.tsx';
import { Thumbnail } from '../admin-uploads/image-picker.tsx';
import type { When } from './queries.ts';

/** One page of events as cards, each with edit and delete. */
export function EventList({
  events,
  when,
  onEdit,
  onDelete,
}: {
  events: UseQueryResult<AdminEventList>;
  when: When;
  onEdit: (event: AdminEvent) => void;
  onDelete: (event: AdminEvent) => void;
}) {
  return (
    <QueryState
      query={events}
      error="Failed to fetch events"
      loading="Loading events..."
      isEmpty={(list) => list.events.length === 0}
      empty={
        <Card className="p-10 text-center text-zinc-400">
          {when === 'upcoming' ? 'No upcoming events. Create the next one.' : 'No past events.'}
        </Card>
      }
    >
      {(list) => (
        <ul className="grid gap-6 md:grid-cols-2">
          {list.events.map((event) => (
            <li key={event.id} className={`${cardClass} flex flex-col gap-4 p-5 sm:flex-row`}>
              <Thumbnail
                key={event.imageUrl}
                src={event.imageUrl}
                className="aspect-video w-full shrink-0 rounded-lg sm:aspect-auto sm:h-24 sm:w-32"
              />
              <div className="min-w-0 flex-1">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="flex items-center gap-2 font-sans text-lg font-semibold text-white">
                    {event.title}
                    {event.jotformUrl && (
                      <a
                        href={event.jotformUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={`Booking form for ${event.title}`}
                      >
                        <ExternalLink className="size-4 text-spotlight-300" aria-hidden />
                      </a>
                    )}
                  </h2>
                  <div className="flex shrink-0 gap-1">
                    <EditDeleteButtons
                      name={event.title}
                      onEdit={() => onEdit(event)}
                      onDelete={() => onDelete(event)}
                    />
                  </div>
                </div>
                <p className="text-sm text-spotlight-300">{formatEventDate(event.date)}</p>
                <p className="flex items-center gap-1 text-sm text-zinc-400">
                  <MapPin className="size-3" aria-hidden /> {event.location}
                </p>
                <p className="mt-2 text-sm text-zinc-300">{event.description || 'No description'}</p>
                <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs text-zinc-400">
                  <dt>Type</dt>
                  <dd>{event.eventType}</dd>
                  <dt>Booking URL</dt>
                  <dd className="truncate">{event.jotformUrl ?? 'Not set'}</dd>
                </dl>
              </div>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}
