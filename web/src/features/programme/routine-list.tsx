import { Link } from 'wouter';
import { formatPrice } from '@app/shared/format';
import type { Routine } from '@app/shared/schemas';
import { VideoPreview } from '../shop/video-preview.tsx';
import { purchasePath } from '../shop/queries.ts';
import { OnlineAlertForm } from './online-alert-form.tsx';

/** "Item 47 · Junior Solo Jazz 10 & Under": how a programme names a routine. */
export const routineHeading = (routine: Routine) =>
  `Item ${routine.entryNumber}${routine.title ? `: ${routine.title}` : ''}`;

/** Routines of a programme with their videos (preview, price) or "not online yet"; dancers link to their page. */
export function RoutineList({
  routines,
  headingLevel = 3,
  alerts = true,
}: {
  routines: Routine[];
  headingLevel?: 2 | 3;
  /** "Tell me when it is online" on a routine without a video (a dancer's page has its own instead). */
  alerts?: boolean;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {routines.map((routine, index) => (
        <li
          key={routine.entryId}
          className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-stage-800/70"
        >
          {routine.videos[0] ? (
            // The first two previews are above the fold on a phone: the page's largest paint.
            <VideoPreview
              previewUrl={routine.videos[0].previewUrl}
              title={routine.videos[0].title}
              priority={index < 2}
            />
          ) : (
            <div className="flex aspect-video items-center justify-center bg-stage-700 text-sm text-zinc-400">
              Video not online yet
            </div>
          )}
          <div className="flex flex-1 flex-col p-4">
            <Heading className="font-semibold text-white">{routineHeading(routine)}</Heading>
            {routine.section && <p className="text-sm text-zinc-300">{routine.section}</p>}
            {routine.studio && <p className="text-sm text-zinc-400">{routine.studio}</p>}
            {routine.dancers.length > 0 && (
              <p className="mt-1 text-sm text-zinc-300">
                {routine.dancers.map((dancer, index) => (
                  <span key={dancer.id}>
                    {index > 0 && ', '}
                    <Link
                      href={`/dancers/${encodeURIComponent(dancer.id)}`}
                      className="underline hover:text-white"
                    >
                      {dancer.name}
                    </Link>
                  </span>
                ))}
              </p>
            )}
            {alerts && routine.videos.length === 0 && (
              <div className="mt-auto flex flex-col pt-3">
                <OnlineAlertForm
                  target={{ entryId: routine.entryId }}
                  label={routineHeading(routine)}
                  collapsed
                />
              </div>
            )}
            <ul className="mt-auto pt-3">
              {routine.videos.map((video) => (
                <li key={video.id} className="flex items-center justify-between gap-2 py-1">
                  <Link
                    href={purchasePath(video.id)}
                    className="min-w-0 truncate text-sm font-semibold text-spotlight-300 hover:underline"
                  >
                    {video.title}
                  </Link>
                  <span className="shrink-0 text-sm text-white">
                    {video.priceCents === 0 ? 'Free' : formatPrice(video.priceCents)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </li>
      ))}
    </ul>
  );
}
