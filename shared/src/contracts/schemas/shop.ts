import { z } from 'zod';

// The public video shop's HTTP contract: what the api answers and the web app
// reads. Browser-safe. Request bodies the api parses are in requests.ts (checkoutRequestSchema).

export const videoAvailabilities = ['available', 'processing', 'unavailable'] as const;
export type VideoAvailability = (typeof videoAvailabilities)[number];

/** What visitors see of a video (GET /api/videos, /api/videos/{id}): never a password hash or storage key. */
export const publicVideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  showcaseId: z.string().nullable(),
  priceCents: z.number().int(),
  /** The owner's picture or the worker's poster frame (a protected video's frame only with its token). */
  previewUrl: z.string().nullable(),
  /** The watermarked preview clip of a paid video once the worker has made it (a protected one's: with its token). */
  previewClipUrl: z.string().nullable(),
  passwordProtected: z.boolean(),
  /**
   * `unavailable`: its file could not be processed (not listed, not sold); `processing`: a paid video
   * being prepared (shown, sold once ready); else `available`.
   */
  availability: z.enum(videoAvailabilities),
  createdAt: z.string(),
});
export type PublicVideo = z.infer<typeof publicVideoSchema>;

/** GET /api/testimonials: the quotes the home page shows, in the owner's order. */
export const publicTestimonialSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  quote: z.string(),
  event: z.string().nullable(),
});
export type PublicTestimonial = z.infer<typeof publicTestimonialSchema>;

/** POST /api/verify-video-password answers a short-lived token bound to that video. */
export const videoTokenSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type VideoToken = z.infer<typeof videoTokenSchema>;

/** POST /api/checkout: the card payment page to send the buyer to. */
export const checkoutResponseSchema = z.object({ url: z.string(), sessionId: z.string().optional() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** The longest a status request may wait for a pending purchase to settle, in seconds. */
export const PURCHASE_WAIT_MAX_SECONDS = 25;

const waitMessage = `must be a whole number of seconds from 0 to ${PURCHASE_WAIT_MAX_SECONDS}`;

/** GET /api/purchases/{id}?wait=N: while pending, answer when it settles or after N seconds (default 0). */
export const purchaseStatusQuerySchema = z.object({
  wait: z.coerce
    .number({ error: waitMessage })
    .int(waitMessage)
    .min(0, waitMessage)
    .max(PURCHASE_WAIT_MAX_SECONDS, waitMessage)
    .default(0),
});

export const streamLinkSchema = z.object({
  streamUrl: z.string(),
  expiresInSeconds: z.number().optional(),
  /** The adaptive stream's master playlist (decision 031), when the video has one; streamUrl is the fallback. */
  hlsUrl: z.string().optional(),
});
export type StreamLink = z.infer<typeof streamLinkSchema>;

/** The player's refresh of its playlist grant and segment token (decision 031). */
export const hlsTokenSchema = z.object({
  grant: z.string(),
  token: z.string(),
  expiresInSeconds: z.number(),
});
export type HlsToken = z.infer<typeof hlsTokenSchema>;

export const downloadLinkSchema = z.object({
  downloadUrl: z.string(),
  expiresInSeconds: z.number().optional(),
});
export type DownloadLink = z.infer<typeof downloadLinkSchema>;
