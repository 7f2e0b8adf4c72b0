import { z } from 'zod';

// GET /api/admin/showcases/:id/season: the owner's season view of one showcase (issue 30, decision 034).
// Admin only: the searches that found nothing may hold children's names.

const count = z.number().int().nonnegative();

export const seasonEntriesSchema = z.object({
  total: count,
  withVideo: count,
  /** Still missing their file: without a video, and not marked as not filmed. */
  withoutVideo: count,
  /** Without a video because the owner marked them as not filmed in a bulk upload. */
  notFilmed: count,
});

export const seasonVideosSchema = z.object({
  total: count,
  ready: count,
  /** Queued or being processed. */
  processing: count,
  failed: count,
  /** Not linked to an entry of the programme. */
  withoutEntry: count,
  /** The failed ones (at most 20), with the worker's reason, to fix or process again. */
  failedVideos: z.array(z.object({ id: z.string(), title: z.string(), reason: z.string().nullable() })),
});

export const seasonSalesSchema = z.object({
  /** Paid purchases holding at least one of the showcase's videos. */
  purchases: count,
  /** Videos of the showcase sold (one per purchase item). */
  videosSold: count,
  /** The showcase's share of what was paid (refunded purchases left out), cents. */
  revenueCents: count,
});

/** One New Zealand calendar day of sales; days without sales are there too (zeros), for the chart. */
export const seasonDaySchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  purchases: count,
  revenueCents: count,
});

/** The path from a routine's page to a paid purchase, over all the showcase's videos. */
export const seasonFunnelSchema = z.object({
  /** Visits of the videos' pages (each address once an hour). */
  visits: count,
  /** Checkouts started holding one of the videos (any outcome). */
  checkouts: count,
  /** Of those, paid. */
  paid: count,
});

export const seasonRoutineSchema = z.object({
  videoId: z.string(),
  title: z.string(),
  entryId: z.string().nullable(),
  entryNumber: z.string().nullable(),
  visits: count,
  /** Paid purchases of this video. */
  sold: count,
  revenueCents: count,
  /** sold / visits; null without visits (above 1 when bought in a bundle without a visit). */
  conversion: z.number().min(0).nullable(),
});

export const seasonSearchMissSchema = z.object({
  /** The normalised words (lower case, no accents). */
  query: z.string(),
  count: count,
  lastDay: z.string(),
  /** Searches of the video library that found no video. */
  library: count,
  /** "Find your dancer" searches that found no dancer, studio or routine anywhere. */
  programme: count,
  /** Searched within this showcase's page (otherwise across the site). */
  withinShowcase: z.boolean(),
  /** The nearest dancer, studio or routine of this programme, when one is near: likely what was meant. */
  suggestion: z
    .object({
      entryId: z.string(),
      entryNumber: z.string(),
      /** What was near: the dancer's or studio's name, or the entry's section and title. */
      label: z.string(),
      /** The words that find the entry in the programme's entries list. */
      search: z.string(),
    })
    .nullable(),
});

export const seasonViewSchema = z.object({
  showcase: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  entries: seasonEntriesSchema,
  videos: seasonVideosSchema,
  sales: seasonSalesSchema,
  salesByDay: z.array(seasonDaySchema),
  funnel: seasonFunnelSchema,
  topRoutines: z.array(seasonRoutineSchema),
  searchMisses: z.array(seasonSearchMissSchema),
  /** How many days of searches are kept (and shown). */
  searchMissDays: count,
});
export type SeasonView = z.infer<typeof seasonViewSchema>;
export type SeasonDay = z.infer<typeof seasonDaySchema>;
export type SeasonRoutine = z.infer<typeof seasonRoutineSchema>;
export type SeasonSearchMiss = z.infer<typeof seasonSearchMissSchema>;

// GET /api/admin/search-misses: every search of the kept days that found nothing, across the site,
// one line per words, source and showcase. Admin only, like the season view: the words may name a child.

export const searchMissLineSchema = z.object({
  /** The normalised words (lower case, no accents). */
  query: z.string(),
  /** The video library's search, or "find your dancer". */
  source: z.enum(['library', 'programme']),
  /** The showcase searched within; null for a search across every competition. */
  showcaseId: z.string().nullable(),
  showcaseName: z.string().nullable(),
  /** Times asked in the kept days. */
  count: count.positive(),
  /** The last New Zealand day it was asked. */
  lastDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

export const searchMissListSchema = z.object({
  /** Newest first, then the most asked; at most `limit` lines. */
  misses: z.array(searchMissLineSchema),
  /** There are more lines than `limit`. */
  more: z.boolean(),
  limit: count,
});
export type SearchMissLine = z.infer<typeof searchMissLineSchema>;
export type SearchMissList = z.infer<typeof searchMissListSchema>;
