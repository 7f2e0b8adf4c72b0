import { sql } from 'drizzle-orm';
import { videos } from '../db/index.ts';

// Only what can be delivered is listed and sold. A video whose processing failed (a corrupt,
// unplayable or missing file) is neither listed nor sold; a paid video still being processed may be
// listed but is sold only once it is ready. Videos never processed (older rows, state null) keep
// selling as before. The `v.` forms are for the library's queries over the alias v.

/** Listed publicly: processing did not fail. Routine cards say the same in SQL (migration 0026). */
export const listedVideo = sql`${videos.processingState} is distinct from 'failed'`;
export const listedVideoV = sql.raw(`v.processing_state is distinct from 'failed'`);

/** May be sold now: processed and ready, or never processed. */
export const sellableVideo = sql`coalesce(${videos.processingState}, 'ready') = 'ready'`;
export const sellableVideoV = sql.raw(`coalesce(v.processing_state, 'ready') = 'ready'`);

/**
 * What a visitor may do with a video, as the public answers say it: `unavailable` (processing failed:
 * not listed, not sold), `processing` (paid, being prepared: shown, not yet sold), else `available`.
 */
const availabilitySql = (state: string, price: string) =>
  `case when ${state} = 'failed' then 'unavailable'
    when ${price} > 0 and ${state} in ('queued', 'processing') then 'processing'
    else 'available' end`;
export const videoAvailability = sql<'available' | 'processing' | 'unavailable'>`${sql.raw(
  availabilitySql('"videos"."processing_state"', '"videos"."price_cents"'),
)}`;
export const videoAvailabilityV = sql.raw(availabilitySql('v.processing_state', 'v.price_cents'));

/** The same rule as videoAvailability, for a row already read. */
export function availabilityOf(video: {
  processingState: string | null;
  priceCents: number;
}): 'available' | 'processing' | 'unavailable' {
  if (video.processingState === 'failed') return 'unavailable';
  if (video.priceCents > 0 && (video.processingState === 'queued' || video.processingState === 'processing'))
    return 'processing';
  return 'available';
}
