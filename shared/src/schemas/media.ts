import { z } from 'zod';

// What the process-video job finds and makes for a video's file (docs/decisions/022). Browser-safe:
// the admin screen reads it.

export const videoMediaSchema = z.object({
  durationSeconds: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  videoCodec: z.string(),
  audioCodec: z.string().nullable(),
  sizeBytes: z.number().int(),
  /** The original had its index (moov) before the media data, so it plays before it has all arrived. */
  fastStart: z.boolean(),
  /** Storage keys of the outputs: the poster picture (previews/), the preview clip, the fast-start copy. */
  posterKey: z.string(),
  clipKey: z.string().nullable(),
  streamKey: z.string().nullable(),
});
export type VideoMedia = z.infer<typeof videoMediaSchema>;

export const videoProcessingStateSchema = z.enum(['queued', 'processing', 'ready', 'failed']);

/** A video's processing as the owner sees it; `progress` (0-100) while processing. */
export const videoProcessingSchema = z.object({
  state: videoProcessingStateSchema.nullable(),
  progress: z.number().nullable(),
  error: z.string().nullable(),
  media: videoMediaSchema.nullable(),
});
export type VideoProcessing = z.infer<typeof videoProcessingSchema>;
