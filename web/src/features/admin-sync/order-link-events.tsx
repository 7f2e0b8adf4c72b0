import { ExternalLink, MapPin } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { useUpcomingEvents } from './queries.ts';

/** The upcoming events with their order links (or none yet). */
export function OrderLinkEvents() {
  const events = useUpcomingEvents();
  return (
    <AdminSection id="current-events" className={`${cardClass} p-6`} title="Current Events">
      <QueryState
        className="mt-3"
        query={events}
        error="Failed to fetch events"
        loading="Loading events..."
        empty={<p className="text-zinc-400">No events yet.</p>}
      >
        {(list) => (
          <ul className="-mt-1 divide-y divide-white/10">
            {list.map((event) => (
              <li key={event.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-white">{event.title}</p>
                  <p className="flex items-center gap-1 text-sm text-zinc-400">
                    <MapPin className="size-3 shrink-0" aria-hidden /> {event.location}
                  </p>
                </div>
                {event.jotformUrl ? (
                  <Button asChild size="sm" variant="secondary">
                    <a href={event.jotformUrl} target="_blank" rel="noopener noreferrer">
                      Order Link <ExternalLink className="size-4" aria-hidden />
                    </a>
                  </Button>
                ) : (
                  <span className="text-sm text-zinc-500">No order link</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </AdminSection>
  );
}
