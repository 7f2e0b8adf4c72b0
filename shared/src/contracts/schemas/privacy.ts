import { z } from 'zod';
import {
  auditActionValues,
  removalRequesterValues,
  removalStatusValues,
  removalSubjectValues,
  showcasePrivacyValues,
} from '../privacy.ts';

// Private showcases, removal requests and the audit log (docs/decisions/030): the HTTP contract. Browser-safe.
// The constants and words are in ../privacy.ts (no zod), re-exported here.
export * from '../privacy.ts';

export const showcasePrivacySchema = z.enum(showcasePrivacyValues, {
  error: 'Privacy must be public, unlisted or access code',
});

/** What the owner sets and hands out: letters, digits and dashes, easy to read out over the phone. */
export const accessCodeSchema = z
  .string({ error: 'Access code must be text' })
  .trim()
  .min(4, 'The access code needs at least 4 characters')
  .max(64, 'The access code must be at most 64 characters')
  .regex(/^[\p{L}\p{N}-]+$/u, 'Use letters, digits and dashes only');

/** POST /api/showcase-access: the code typed on a showcase page (slug) or a video page (videoId). */
export const showcaseAccessRequestSchema = z.strictObject({
  slug: z.string().trim().min(1).max(200).optional(),
  videoId: z.string().trim().min(1).max(100).optional(),
  // A dancer's or studio's page, reached by a link before the showcase itself was opened.
  dancerId: z.string().trim().min(1).max(100).optional(),
  studioId: z.string().trim().min(1).max(100).optional(),
  code: z.string({ error: 'Enter the access code' }).trim().min(1, 'Enter the access code').max(200),
});
export type ShowcaseAccessRequest = z.infer<typeof showcaseAccessRequestSchema>;

/** POST /api/videos/{id}/removal-request. */
export const removalRequestSchema = z.strictObject({
  requester: z.enum(removalRequesterValues, { error: 'Say who is asking' }),
  reason: z
    .string({ error: 'Say why' })
    .trim()
    .min(1, 'Say why you are asking')
    .max(2_000, 'Please keep it under 2,000 characters'),
  email: z.email({ error: 'Enter a valid email address' }).max(320),
});
export type RemovalRequestInput = z.infer<typeof removalRequestSchema>;
/** GET /api/admin/removal-requests: newest first. */
export const adminRemovalRequestSchema = z.object({
  id: z.string(),
  subjectKind: z.enum(removalSubjectValues),
  videoId: z.string().nullable(),
  /** The video's title, or the dancer's name and competition, when asked. */
  videoTitle: z.string(),
  /**
   * A dancer's request: her programme, where the owner removes her name or links and hides her
   * routines (null once her name has been removed, or for a video's request).
   */
  dancer: z.object({ id: z.string(), name: z.string(), showcaseId: z.string() }).nullable(),
  /** Whether the video is withdrawn now (null: deleted since). */
  videoWithdrawn: z.boolean().nullable(),
  /** How many paid purchases hold the video: the owner decides about refunds on the sales screen. */
  paidPurchases: z.number().int(),
  requester: z.enum(removalRequesterValues),
  reason: z.string(),
  email: z.string(),
  status: z.enum(removalStatusValues),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type AdminRemovalRequest = z.infer<typeof adminRemovalRequestSchema>;

/** PATCH /api/admin/removal-requests/{id}. */
export const removalStatusUpdateSchema = z.strictObject({ status: z.enum(removalStatusValues) });

/** POST /api/admin/videos/{id}/withdraw and /restore: the reason goes into the audit log. */
export const withdrawVideoSchema = z.strictObject({
  reason: z.string().trim().max(2_000).optional(),
  requestId: z.string().trim().min(1).max(100).optional(),
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.enum(auditActionValues),
  subjectKind: z.enum(['video', 'showcase', 'dancer']),
  subjectId: z.string(),
  subjectName: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
