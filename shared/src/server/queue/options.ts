import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { JobName, JobPayload } from './jobs.ts';

interface JobPolicy<N extends JobName> {
  attempts: number;
  backoff: JobsOptions['backoff'];
  /** Deterministic where the job must happen once per cause; no ':' and no bare integers (BullMQ rules). */
  jobId?: (payload: JobPayload<N>) => string | undefined;
  /** Removed from Redis when it ends, so the same job id can run again (its history is kept elsewhere). */
  removeWhenDone?: boolean;
  /** BullMQ priority (a larger number waits longer; none goes first). */
  priority?: (payload: JobPayload<N>) => number | undefined;
  /** Milliseconds to wait before the job may run. */
  delay?: (payload: JobPayload<N>) => number | undefined;
}

/**
 * Views and downloads are applied in batches: every event of one STAT_BATCH_MS slot queues the same
 * job (`stats-<slot>`, a no-op after the first), which runs STAT_BATCH_MARGIN_MS after the slot ends,
 * so it starts after every event of its slot was saved (each is saved before it is queued).
 */
export const STAT_BATCH_MS = 100;
const STAT_BATCH_MARGIN_MS = 100;
export const statBatch = (now = Date.now()) => Math.floor(now / STAT_BATCH_MS);

const retryWithBackoff = { type: 'exponential', delay: 1_000 } as const;

const PURCHASE_CHECK_DELAY_MS = 2_000;
/** Removal requests of one minute go to the owner in one e-mail. */
const REMOVAL_BATCH_MS = 60_000;

/** The order-link sync's one job id: a second trigger joins the sync waiting or running. */
export const SYNC_JOB_ID = 'sync-order-links';

/** Short digest of a storage key: names a video file's job and its outputs (keys may hold '/' and ':'). */
export const storageKeyDigest = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 24);

/** One process-video job per video and file: a duplicate trigger joins it ("Process again" removes it first). */
export const processVideoJobId = (payload: JobPayload<'process-video'>) =>
  `video-${payload.videoId}-${storageKeyDigest(payload.awsKey)}`;

/** One stream job per video and file, like process-video's. */
export const videoStreamJobId = (payload: { videoId: string; awsKey: string }) =>
  `stream-${payload.videoId}-${storageKeyDigest(payload.awsKey)}`;

export const jobPolicies: { [N in JobName]: JobPolicy<N> } = {
  'count-video-stat': {
    attempts: 10,
    backoff: retryWithBackoff,
    jobId: (payload) => (payload.batch === undefined ? undefined : `stats-${payload.batch}`),
    delay: (payload) =>
      payload.batch === undefined
        ? undefined
        : Math.max(0, (payload.batch + 1) * STAT_BATCH_MS + STAT_BATCH_MARGIN_MS - Date.now()),
  },
  'record-sale': {
    attempts: 12,
    backoff: { type: 'exponential', delay: 2_000 },
    // One job per Stripe event; success-page checks get a new id every few seconds so polling can re-check.
    // Never a session id in a job id: it is the buyer's download proof (a digest for older payloads).
    jobId: (payload) =>
      payload.kind === 'offline'
        ? `offline-${payload.purchaseId}`
        : payload.kind === 'check'
          ? `check-${payload.purchaseId}-${Math.floor(Date.now() / 5_000)}`
          : payload.eventId
            ? `stripe-${payload.eventId}`
            : `check-${storageKeyDigest(payload.kind === 'checkout' ? payload.checkoutSessionId : payload.paymentIntentId)}-${Math.floor(Date.now() / 5_000)}`,
    // A buyer's page asking after a pending purchase (no event id): Stripe's webhook usually settles it
    // within a second or two, so the check asks Stripe only if that has not happened by then, instead
    // of competing with the webhook's own job for the same purchase.
    delay: (payload) =>
      payload.kind === 'offline' || (payload.kind !== 'check' && payload.eventId)
        ? undefined
        : PURCHASE_CHECK_DELAY_MS,
  },
  'purchase-receipt': {
    attempts: 8,
    backoff: { type: 'exponential', delay: 5_000 },
    jobId: (payload) => (payload.resend ? undefined : `receipt-${payload.purchaseId}`),
  },
  'sync-order-links': {
    attempts: 5,
    backoff: { type: 'exponential', delay: 5_000 },
    // One id while waiting or active: a second trigger joins the run in progress instead of starting another.
    jobId: () => SYNC_JOB_ID,
    removeWhenDone: true,
  },
  'prune-video-stat-events': { attempts: 3, backoff: retryWithBackoff },
  // The api queues it once per window (a Redis SET NX), so it needs no job id.
  'security-alert': { attempts: 8, backoff: { type: 'exponential', delay: 5_000 } },
  'contact-notification': {
    attempts: 8,
    backoff: { type: 'exponential', delay: 5_000 },
    jobId: (payload) => (payload.contactId ? `contact-${payload.contactId}` : undefined),
  },
  'process-video': {
    // Storage outages are retried for about a minute and a half; a bad file fails at once (unrecoverable).
    attempts: 4,
    backoff: { type: 'exponential', delay: 15_000 },
    jobId: processVideoJobId,
  },
  'make-video-stream': {
    attempts: 3,
    backoff: { type: 'exponential', delay: 15_000 },
    jobId: videoStreamJobId,
    // Older videos converted by the sweep wait behind new uploads.
    priority: (payload) => (payload.sweep ? 10 : undefined),
  },
  'process-image': {
    attempts: 5,
    backoff: retryWithBackoff,
    // One run per upload: an image row is made once per storage key. The sweep's runs get their own ids.
    jobId: (payload) => (payload.imageId ? `image-${payload.imageId}` : undefined),
  },
  'removal-request-notification': {
    attempts: 8,
    backoff: { type: 'exponential', delay: 5_000 },
    // One job per minute however many requests arrive (a flood is one e-mail a minute), run at the
    // minute's end so it finds them all; each run sends whatever is not yet sent.
    jobId: () => `removal-requests-${Math.floor(Date.now() / REMOVAL_BATCH_MS)}`,
    delay: () => REMOVAL_BATCH_MS - (Date.now() % REMOVAL_BATCH_MS) + 1_000,
  },
  'retention-sweep': { attempts: 3, backoff: retryWithBackoff },
  'online-alert-confirm': {
    attempts: 5,
    backoff: { type: 'exponential', delay: 2_000 },
    // A request again (the first e-mail lost) queues it again: the row says whether it still needs sending.
    jobId: (payload) => `online-alert-confirm-${payload.alertId}`,
    removeWhenDone: true,
  },
  // No job id: a publish while a run is under way must get a run of its own after it.
  'online-alert-notify': { attempts: 8, backoff: { type: 'exponential', delay: 5_000 } },
  'sweep-abandoned-uploads': { attempts: 3, backoff: retryWithBackoff },
  'buyer-sign-in': {
    // A link is worth sending only while the buyer waits for it: a few quick retries, no more.
    attempts: 5,
    backoff: { type: 'exponential', delay: 2_000 },
    jobId: (payload) => `buyer-sign-in-${payload.requestId}`,
  },
  'tax-document-mail': {
    attempts: 8,
    backoff: { type: 'exponential', delay: 5_000 },
    jobId: (payload) => `tax-document-${payload.documentId}`,
  },
  'checkout-reminder': {
    attempts: 6,
    backoff: { type: 'exponential', delay: 10_000 },
    jobId: (payload) => `checkout-reminder-${payload.purchaseId}`,
  },
  // A schedule's run: the next hour's run reads the same payouts again, so a few quick retries suffice.
  'read-stripe-payouts': { attempts: 3, backoff: retryWithBackoff },
  'read-payment-fee': {
    // The balance transaction can lag the charge by a few seconds: retried for about half an hour.
    attempts: 10,
    backoff: { type: 'exponential', delay: 5_000 },
    jobId: (payload) => `payment-fee-${payload.purchaseId}`,
  },
};

// Keep enough history for the admin jobs screen without letting Redis grow without bound.
export const defaultJobOptions: JobsOptions = {
  removeOnComplete: { age: 7 * 24 * 3600, count: 1_000 },
  removeOnFail: { age: 30 * 24 * 3600, count: 5_000 },
};

export function jobOptions<N extends JobName>(name: N, payload: JobPayload<N>): JobsOptions {
  const policy = jobPolicies[name];
  return {
    ...defaultJobOptions,
    ...(policy.removeWhenDone && { removeOnComplete: true, removeOnFail: true }),
    attempts: policy.attempts,
    backoff: policy.backoff,
    jobId: policy.jobId?.(payload),
    delay: policy.delay?.(payload),
    priority: policy.priority?.(payload),
  };
}
