import { CalendarDays, MapPin } from 'lucide-react';
import { formatEventDate } from '@app/shared/format';
import { imageSrcSet, imageUrl } from '@app/shared/images';
import { Button } from '../../components/ui/button.tsx';
import { SkeletonItems } from '../../components/ui/skeleton.tsx';
import { track } from '../../lib/analytics.ts';
import { SectionHeading } from './sections.tsx';
import { useEvents } from './queries.ts';

export function Competitions() {
  const { data, isPending, isError } = useEvents();
  return (
    <section id="competitions" aria-labelledby="competitions-title" className="bg-stage-900 px-6 py-24">
      <div className="mx-auto max-w-7xl">
        <SectionHeading
          id="competitions-title"
          eyebrow="Dance Competitions"
          title="Book Your Competition Photos"
        >
          Prebook online with nothing to pay up front, then 4 equal fortnightly payments.
        </SectionHeading>
        {isError ? (
          <p className="mt-12 text-center text-red-300">Failed to fetch events</p>
        ) : (
          <ul className="mt-14 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {isPending ? (
              <SkeletonItems count={3} className="h-[26rem] rounded-2xl" testId="event-placeholder" />
            ) : (
              data.map((event) => (
                <li
                  key={event.id}
                  className="reveal flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-stage-800/80"
                >
                  <img
                    src={imageUrl(event.imageUrl, 640)}
                    srcSet={imageSrcSet(event.imageUrl, 1280)}
                    sizes="(min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw"
                    alt=""
                    loading="lazy"
                    className="aspect-[16/9] w-full object-cover"
                  />
                  <div className="flex flex-1 flex-col p-6">
                    <h3 className="text-xl font-semibold text-white">{event.title}</h3>
                    <p className="mt-3 flex items-center gap-2 text-sm text-spotlight-300">
                      <CalendarDays className="size-4" aria-hidden />
                      <time dateTime={event.date}>{formatEventDate(event.date)}</time>
                    </p>
                    <p className="mt-1 flex items-center gap-2 text-sm text-zinc-400">
                      <MapPin className="size-4" aria-hidden />
                      {event.location}
                    </p>
                    <p className="mt-4 flex-1 text-zinc-300">{event.description}</p>
                    {event.jotformUrl ? (
                      <Button asChild className="mt-6">
                        <a
                          href={event.jotformUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          onClick={() => track('Booking Link Opened', { event: event.title })}
                        >
                          Book Now - No Upfront Cost
                        </a>
                      </Button>
                    ) : (
                      <Button className="mt-6" variant="secondary" disabled>
                        Coming Soon
                      </Button>
                    )}
                  </div>
                </li>
              ))
            )}
          </ul>
        )}
      </div>
    </section>
  );
}
