import { z } from 'zod';

// What the process-video job finds and makes for a video's file (docs/decisions/022). Browser-safe:
// the admin screen reads it.

export const videoStreamStateSchema = z.enum(['queued', 'processing', 'ready', 'failed']);

/** One quality of the adaptive stream: the original's picture copied, or an encode. */
export const renditionSchema = z.object({
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The original's video stream copied, not re-encoded. */
  copy: z.boolean(),
});
export type Rendition = z.infer<typeof renditionSchema>;

/**
 * The adaptive (HLS) stream the make-video-stream job writes under `prefix` (master.m3u8 and one folder
 * per rendition). A failed stream leaves the video playing from its fast-start copy.
 */
export const videoStreamSchema = z.object({
  state: videoStreamStateSchema,
  error: z.string().nullable(),
  /** `streams/<digest of the file's key>/`, once ready. */
  prefix: z.string().nullable(),
  renditions: z.array(renditionSchema),
});
export type VideoStream = z.infer<typeof videoStreamSchema>;

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
  /** Absent for videos processed before adaptive streams existed (the owner's sweep makes them). */
  hls: videoStreamSchema.optional(),
});
export type VideoMedia = z.infer<typeof videoMediaSchema>;

export const videoProcessingStateSchema = z.enum(['queued', 'processing', 'ready', 'failed']);

/** A video's processing as the owner sees it; `progress` (0-100) while processing. */
export const videoProcessingSchema = z.object({
  state: videoProcessingStateSchema.nullable(),
  progress: z.number().nullable(),
  error: z.string().nullable(),
  media: videoMediaSchema.nullable(),
  /** The adaptive stream's job's percentage while it runs. */
  streamProgress: z.number().nullable(),
});
export type VideoProcessing = z.infer<typeof videoProcessingSchema>;
