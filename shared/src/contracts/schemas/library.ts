import { z } from 'zod';
import { showcasePrivacySchema } from './privacy.ts';
import { LIBRARY_MAX_PAGE, MORE_VIDEOS_SLUG, SEARCH_TEXT_MAX } from '../library.ts';
import { publicVideoSchema } from './shop.ts';

export * from '../library.ts';

// The video library at scale (decision 020): paged lists, server
// search, showcase pages. Browser-safe.

export const slugSchema = z
  .string()
  .trim()
  .min(1, 'Slug is required')
  .max(80, 'Slug must be at most 80 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single dashes')
  .refine((slug) => slug !== MORE_VIDEOS_SLUG, `"${MORE_VIDEOS_SLUG}" is kept for videos without a showcase`);

/** A whole number from a query string, with one message for every way it can be wrong. */
export const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

const pageMessage = `Page must be a whole number from 1 to ${LIBRARY_MAX_PAGE}`;

const searchText = z
  .string({ error: 'Search text must be text' })
  .max(SEARCH_TEXT_MAX, `Search text must be at most ${SEARCH_TEXT_MAX} characters`);
const filters = {
  q: searchText.optional(),
  /** A showcase's id or slug, or "more" for videos without one. */
  showcase: z.string({ error: 'Showcase must be text' }).trim().min(1).max(100).optional(),
  price: z.enum(['free', 'paid'], { error: 'Price must be "free" or "paid"' }).optional(),
};

/** GET /api/videos: at most `limit` videos, the next page's address in the Link header (rel="next"). */
export const videoListQuerySchema = z.object({
  ...filters,
  limit: wholeNumber('Limit', 1, 500).default(100),
  cursor: z.string({ error: 'Cursor must be text' }).min(1).max(500).optional(),
});

/** The numbered pages of a showcase or of search results (the HTML pages' own `?page=`). */
export const libraryPageQuerySchema = z.object({
  ...filters,
  page: z.coerce
    .number({ error: pageMessage })
    .int(pageMessage)
    .min(1, pageMessage)
    .max(
      LIBRARY_MAX_PAGE,
      `Page must be at most ${LIBRARY_MAX_PAGE}: pages further in are not shown; narrow the search instead`,
    )
    .default(1),
});
export type { LibraryPageQuery } from '../library.ts';

/** GET /api/showcases: each showcase with its page's slug and how many videos it has. */
export const showcaseSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  orderPriority: z.number().int(),
  slug: z.string(),
  showVideosInSearchEngines: z.boolean(),
  /** Unlisted and access-code showcases are reached by their link only (docs/decisions/030). */
  privacy: showcasePrivacySchema,
  videoCount: z.number().int(),
  createdAt: z.string(),
});
export type ShowcaseSummary = z.infer<typeof showcaseSummarySchema>;

/**
 * GET /api/library: what /videos shows: every showcase with videos, in order, the first
 * FEATURED_SHELVES with their first row of videos (the rest with none), then the videos without one.
 */
export const libraryShelvesSchema = z.object({
  shelves: z.array(
    z.object({
      showcase: showcaseSummarySchema.nullable(),
      videoCount: z.number().int(),
      videos: z.array(publicVideoSchema),
    }),
  ),
  videoCount: z.number().int(),
});
export type LibraryShelves = z.infer<typeof libraryShelvesSchema>;

/**
 * One numbered page of videos: a showcase's (GET /api/library/{slug}?page=N; showcase null for the
 * videos without one) or search results (GET /api/library/search?q=...&page=N).
 */
export const libraryPageSchema = z.object({
  showcase: showcaseSummarySchema.nullable(),
  videos: z.array(publicVideoSchema),
  page: z.number().int(),
  pageCount: z.number().int(),
  total: z.number().int(),
});
export type LibraryPage = z.infer<typeof libraryPageSchema>;
