import { z } from 'zod';

// The order-link sync's HTTP contract (POST /api/sync-order-links, GET /api/admin/sync-runs). Browser-safe.

const row = z.number().int();

/** What one sync did; rows are 1-based sheet row numbers, so the owner can find them. */
export const syncResultSchema = z.object({
  /** Events whose order link was written. */
  updatedCount: z.number().int(),
  /** Events that matched a row and already had its link. */
  unchanged: z.number().int(),
  unmatchedRows: z.array(z.object({ row, name: z.string() })),
  /** Rows never written: no http(s) link, no name, or a different link from another row for the same event. */
  invalidRows: z.array(z.object({ row, name: z.string(), link: z.string(), reason: z.string() })),
  /** Rows whose name matches two or more events. */
  ambiguousRows: z.array(z.object({ row, name: z.string(), eventIds: z.array(z.number().int()) })),
});
export type SyncResult = z.infer<typeof syncResultSchema>;

export const syncRunSchema = z.object({
  id: z.number().int(),
  trigger: z.enum(['admin', 'schedule', 'cli']),
  status: z.enum(['running', 'succeeded', 'failed']),
  /** ISO timestamps. */
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Set when the run succeeded. */
  result: syncResultSchema.nullable(),
  /** Why the run failed (or, while running, why the last attempt failed before a retry). */
  failureReason: z.string().nullable(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;

/** POST /api/sync-order-links → 202: the queued sync, or the one already waiting or running. */
export const syncStartedSchema = z.object({ jobId: z.string(), queue: z.literal('sync-order-links') });
export type SyncStarted = z.infer<typeof syncStartedSchema>;

/** GET /api/admin/sync-runs */
export const syncRunsResponseSchema = z.object({
  /** False when neither a sheet nor a CSV is configured (the button would get a 409). */
  configured: z.boolean(),
  /** A sync is waiting, running or waiting to retry. */
  running: z.boolean(),
  /** Its progress, 0-100, while running. */
  progress: z.number().nullable(),
  /** The sync's job while running (follow it at GET /api/admin/jobs/{queue}/{jobId}); null otherwise. */
  job: z.object({ jobId: z.string(), queue: z.literal('sync-order-links'), state: z.string() }).nullable(),
  /** The last 10 runs, newest first. */
  runs: z.array(syncRunSchema),
});
export type SyncRunsResponse = z.infer<typeof syncRunsResponseSchema>;
