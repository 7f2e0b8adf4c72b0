import { z } from 'zod';

// The admin's view of the queues (GET /api/admin/jobs, /api/admin/jobs/{queue}/{id}, POST .../retry).
// Browser-safe: the queue names stay strings here so the browser does not load the job payload schemas.

/** One BullMQ job as the owner sees it; timestamps are ISO strings. */
export const jobSummarySchema = z.object({
  id: z.string(),
  queue: z.string(),
  name: z.string(),
  state: z.string(),
  data: z.unknown(),
  progress: z.unknown(),
  attemptsMade: z.number().int(),
  attempts: z.number().int(),
  result: z.unknown(),
  failedReason: z.string().nullable(),
  createdAt: z.string(),
  processedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type JobSummary = z.infer<typeof jobSummarySchema>;

/** GET /api/admin/jobs: recent jobs, newest first, and every queue's name. */
export const jobListSchema = z.object({ jobs: z.array(jobSummarySchema), queues: z.array(z.string()) });
export type JobList = z.infer<typeof jobListSchema>;

/** A job just queued (POST /api/admin/videos/{id}/process → 202). */
export const queuedJobSchema = z.object({ jobId: z.string(), queue: z.string() });
