import { z } from 'zod';
import { dancerNameDisplays, routineBundleRuleSchema } from './programme-rules.ts';
import { buyerEmailSchema } from './buyer-library.ts';
import { textIdSchema } from './requests.ts';

// Competition programmes (docs/decisions/032): the owner's import and entries, and the public search,
// dancer and studio pages. Browser-safe.

export const programmeFields = ['entryNumber', 'section', 'title', 'dancers', 'studio'] as const;
export type ProgrammeField = (typeof programmeFields)[number];

const column = z.number().int().min(0).max(49);
/** Which column (0-based) holds what; the entry number is required, the rest optional. */
export const programmeMappingSchema = z.strictObject({
  entryNumber: column,
  section: column.optional(),
  title: column.optional(),
  dancers: column.optional(),
  studio: column.optional(),
});
export type ProgrammeMapping = z.infer<typeof programmeMappingSchema>;

/** The query of the preview and import (the file itself is the request body). */
export const programmeUploadQuerySchema = z.object({
  sheet: z.string().max(200).optional(),
  /** The mapping as JSON; absent: the one remembered for this header, or a guess from its words. */
  mapping: z
    .string()
    .max(2_000)
    .optional()
    .transform((text, context) => {
      if (text === undefined) return undefined;
      try {
        return programmeMappingSchema.parse(JSON.parse(text));
      } catch {
        context.addIssue({ code: 'custom', message: 'The column mapping is not valid' });
        return z.NEVER;
      }
    }),
});

export const programmeRowProblemSchema = z.object({
  /** The row's number in the sheet (the header is row 1). */
  row: z.number().int(),
  message: z.string(),
});
export type ProgrammeRowProblem = z.infer<typeof programmeRowProblemSchema>;

export const plannedEntrySchema = z.object({
  row: z.number().int(),
  entryNumber: z.string(),
  section: z.string(),
  title: z.string(),
  studio: z.string(),
  dancers: z.array(z.string()),
});
export type PlannedEntry = z.infer<typeof plannedEntrySchema>;

export const vanishedEntrySchema = z.object({
  entryNumber: z.string(),
  title: z.string(),
  videoCount: z.number().int(),
  sold: z.boolean(),
});

/** POST /api/admin/showcases/{id}/programme/preview, and the import's answer. */
export const programmePreviewSchema = z.object({
  sheets: z.array(z.string()),
  sheet: z.string(),
  headers: z.array(z.string()),
  mapping: programmeMappingSchema.nullable(),
  /** The mapping came from an earlier programme with the same header row. */
  remembered: z.boolean(),
  /** The first entries as they will be saved. */
  entries: z.array(plannedEntrySchema),
  problems: z.array(programmeRowProblemSchema),
  counts: z.object({
    entries: z.number().int(),
    dancers: z.number().int(),
    studios: z.number().int(),
    added: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
  }),
  /** Entries of the showcase the file no longer holds that stay (they have videos or sales). */
  vanished: z.array(vanishedEntrySchema),
  /** Entries the file no longer holds that have no video: removed by the import. */
  removed: z.number().int(),
  imported: z.boolean(),
});
export type ProgrammePreview = z.infer<typeof programmePreviewSchema>;

/** The showcase's programme settings (PATCH /api/admin/showcases/{id}/programme-settings). */
export const programmeSettingsSchema = z.strictObject({
  dancerNames: z.enum(dancerNameDisplays),
  routineBundleRule: routineBundleRuleSchema.nullable(),
});
export type ProgrammeSettings = z.infer<typeof programmeSettingsSchema>;

// ---- Public: search, dancer and studio pages ----

export const programmeSearchQuerySchema = z.object({
  q: z.string().max(5_000).default(''),
  /** The library's showcase filter (its slug or id): only that competition's programme answers. */
  showcase: z.string({ error: 'Showcase must be text' }).trim().min(1).max(100).optional(),
});

export const routineSchema = z.object({
  entryId: z.string(),
  entryNumber: z.string(),
  section: z.string(),
  title: z.string(),
  studio: z.string().nullable(),
  /** Dancers as the showcase shows them (empty when names are hidden). */
  dancers: z.array(z.object({ id: z.string(), name: z.string() })),
  videos: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      priceCents: z.number().int(),
      previewUrl: z.string().nullable(),
      passwordProtected: z.boolean(),
    }),
  ),
});
export type Routine = z.infer<typeof routineSchema>;

export const programmeSearchGroupSchema = z.object({
  showcase: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  /** Dancers found by name: at most a few, each linking to their page. */
  dancers: z.array(z.object({ id: z.string(), name: z.string().nullable(), routineCount: z.number().int() })),
  studios: z.array(z.object({ id: z.string(), name: z.string(), routineCount: z.number().int() })),
  routines: z.array(routineSchema),
});
export type ProgrammeSearchGroup = z.infer<typeof programmeSearchGroupSchema>;

/** GET /api/programme/search?q=: results grouped by competition, newest first. */
export const programmeSearchSchema = z.object({
  groups: z.array(programmeSearchGroupSchema),
  /** Why nothing was looked up ("too-short" names), for the calm "nothing found" text. */
  note: z.string().optional(),
});
export type ProgrammeSearch = z.infer<typeof programmeSearchSchema>;

/** The "buy all" offer of a dancer or studio page: priced on the server by the showcase's rule. */
export const routineBundleOfferSchema = z.object({
  /** "All of Aroha N.'s routines (5)", as the cart and Stripe name it. */
  title: z.string(),
  videoIds: z.array(z.string()),
  routineCount: z.number().int(),
  priceCents: z.number().int(),
  separateCents: z.number().int(),
});
export type RoutineBundleOffer = z.infer<typeof routineBundleOfferSchema>;

/** GET /api/dancers/{id} and /api/studios/{id}. */
export const performerPageSchema = z.object({
  kind: z.enum(['dancer', 'studio']),
  id: z.string(),
  /** Null: the showcase hides dancers' names (the page shows routines only). */
  name: z.string().nullable(),
  showcase: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  routines: z.array(routineSchema),
  offer: routineBundleOfferSchema.nullable(),
});
export type PerformerPage = z.infer<typeof performerPageSchema>;

// ---- The owner's entries screen ----

export const adminEntriesQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  filter: z.enum(['all', 'with-video', 'without-video', 'sold']).default('all'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const adminEntrySchema = z.object({
  id: z.string(),
  entryNumber: z.string(),
  section: z.string(),
  title: z.string(),
  studio: z.string().nullable(),
  dancers: z.array(z.object({ id: z.string(), name: z.string() })),
  videos: z.array(z.object({ id: z.string(), title: z.string() })),
  sold: z.boolean(),
});
export type AdminEntry = z.infer<typeof adminEntrySchema>;

export const adminEntriesSchema = z.object({
  items: z.array(adminEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  settings: programmeSettingsSchema,
});
export type AdminEntries = z.infer<typeof adminEntriesSchema>;

const text = (max: number) => z.string().trim().max(max);
export const entryUpdateSchema = z.strictObject({
  section: text(200).optional(),
  title: text(200).optional(),
  studio: text(120).optional(),
  dancers: z.array(text(120).min(1)).max(60).optional(),
});
export type EntryUpdate = z.infer<typeof entryUpdateSchema>;

export const linkVideoSchema = z.strictObject({
  videoId: z.string().trim().min(1).max(100),
  /** Null: unlink. */
  entryId: z.string().trim().min(1).max(100).nullable(),
});

export const mergeDancersSchema = z.strictObject({
  keepId: z.string().trim().min(1).max(100),
  mergeId: z.string().trim().min(1).max(100),
});

// ---- Public: "tell me when it is online" (decision 035) ----

/** POST /api/online-alerts: an address waiting for a video of one entry or of one dancer. */
export const onlineAlertRequestSchema = z
  .strictObject({
    email: buyerEmailSchema,
    entryId: textIdSchema.optional(),
    dancerId: textIdSchema.optional(),
  })
  .refine((body) => (body.entryId === undefined) !== (body.dancerId === undefined), {
    error: 'Name one routine or one dancer',
  });
export type OnlineAlertRequest = z.infer<typeof onlineAlertRequestSchema>;

/** The answer to every accepted request, whether the address is new, waiting or already confirmed. */
export const ONLINE_ALERT_REQUESTED =
  'Check your e-mail: we sent a link to confirm. Nothing else is sent until you do.';

/** POST /api/online-alerts/{id}/confirm and /unsubscribe: the link's token. */
export const onlineAlertActionSchema = z.object({
  token: z.string().trim().min(1, 'The link has no token').max(200, 'The link is not valid'),
});

export const onlineAlertAnswerSchema = z.object({ message: z.string() });
export type OnlineAlertAnswer = z.infer<typeof onlineAlertAnswerSchema>;

// GET /api/admin/online-alerts/waiting: the routines people asked to hear about that are not online
// yet, most awaited first. Counts only: the owner does not need the addresses.

export const waitingRoutineSchema = z.object({
  entryId: z.string(),
  showcaseId: z.string(),
  showcaseName: z.string(),
  entryNumber: z.string(),
  section: z.string(),
  title: z.string(),
  studio: z.string().nullable(),
  /** Confirmed requests this routine going online would answer: for it, or for one of its dancers. */
  waiting: z.number().int().positive(),
  /** The first of them, confirmed on (ISO time). */
  since: z.string(),
  /** A video is linked but not online yet (unpublished, still processing, or its showcase is hidden). */
  hasVideo: z.boolean(),
});
export type WaitingRoutine = z.infer<typeof waitingRoutineSchema>;

export const waitingRoutineListSchema = z.object({
  routines: z.array(waitingRoutineSchema),
  /** More routines are awaited than the list shows. */
  more: z.boolean(),
  limit: z.number().int().positive(),
});
export type WaitingRoutineList = z.infer<typeof waitingRoutineListSchema>;
