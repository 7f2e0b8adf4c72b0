import { z } from 'zod';

/**
 * Every job the worker runs: its queue name and payload schema.
 * Payloads carry ids, never whole records: handlers reload current state.
 * A capability adds its job here together with its handler in worker/src/jobs/.
 */
export const jobPayloadSchemas = {
  'count-video-stat': z.object({
    // The time slot (statBatch) whose views and downloads this run applies; absent for the sweep.
    batch: z.number().int().nonnegative().optional(),
  }),
  'record-sale': z.discriminatedUnion('kind', [
    // A Checkout Session to settle from Stripe's current state; `failed` for async_payment_failed.
    z.object({
      kind: z.literal('checkout'),
      checkoutSessionId: z.string().min(1).max(255),
      // Absent for a check the buyer's page asked for while the purchase was pending.
      eventId: z.string().max(255).optional(),
      // The Stripe event type, kept with the event id once handled.
      eventType: z.string().max(100).optional(),
      failed: z.boolean().optional(),
    }),
    z.object({
      kind: z.literal('refund'),
      paymentIntentId: z.string().min(1).max(255),
      eventId: z.string().max(255),
      eventType: z.string().max(100).optional(),
    }),
    // The owner recorded a payment made outside Stripe.
    z.object({ kind: z.literal('offline'), purchaseId: z.string().min(1).max(100) }),
    // The buyer's status page asked after a pending purchase: named by the purchase, never by its
    // Checkout Session id (the buyer's download proof stays out of Redis, the logs and the jobs screen).
    z.object({ kind: z.literal('check'), purchaseId: z.string().min(1).max(100) }),
  ]),
  'purchase-receipt': z.object({
    purchaseId: z.string().min(1).max(100),
    // The owner's Resend: send even if a receipt went out before.
    resend: z.boolean().optional(),
  }),
  'sync-order-links': z.object({
    trigger: z.enum(['admin', 'schedule', 'cli']),
  }),
  'contact-notification': z.object({
    // The contact to tell the owner about; absent for the sweep that finds contacts Redis never queued.
    contactId: z.number().int().positive().optional(),
  }),
  'process-video': z.object({
    videoId: z.string().min(1).max(100),
    // The file this run is for: a run whose video has since moved to another file does nothing.
    awsKey: z.string().min(1).max(1_000),
  }),
  // The adaptive stream (HLS renditions) of a processed video's file (decision 031).
  'make-video-stream': z.object({
    videoId: z.string().min(1).max(100),
    awsKey: z.string().min(1).max(1_000),
    // Queued by the owner's sweep of older videos: waits behind new uploads.
    sweep: z.boolean().optional(),
  }),
  // Deletes view/download events applied to the counters more than a day ago (a schedule).
  'prune-video-stat-events': z.object({}),
  'security-alert': z.object({
    // Wrong passwords from many addresses: the owner is told once per window (api/src/http/guesses.ts).
    what: z.enum(['admin-login', 'video-password', 'showcase-access-code']),
    videoId: z.string().max(100).optional(),
    failures: z.number().int().positive(),
    windowMinutes: z.number().int().positive(),
  }),
  'process-image': z.object({
    // The images row made when the upload completed; its sourceKey is the upload. Absent for the sweep
    // that queues again the rows whose job Redis lost.
    imageId: z.uuid().optional(),
  }),
  // A buyer asked for a library sign-in link; the row holds the address (decision 024).
  'buyer-sign-in': z.object({ requestId: z.uuid() }),
  // A credit note issued for a refund: e-mail it to the buyer (decision 029). Invoices go with the receipt.
  'tax-document-mail': z.object({ documentId: z.uuid() }),
  // A Checkout Session expired unpaid: one reminder with Stripe's recovery link, if the buyer agreed.
  'checkout-reminder': z.object({ purchaseId: z.string().min(1).max(100) }),
  // After a card payment: Stripe's fee from the charge's balance transaction, for the GST report.
  'read-payment-fee': z.object({ purchaseId: z.string().min(1).max(100) }),
  // Stripe's payouts to the bank, for the GST report (a schedule; decision 029).
  'read-stripe-payouts': z.object({}),
  // Tells the owner of every removal request not yet e-mailed, in one message (docs/decisions/030).
  'removal-request-notification': z.object({}),
  // "Tell me when it is online" (decision 035): the confirmation e-mail of one alert.
  'online-alert-confirm': z.object({ alertId: z.uuid() }),
  // Sends each confirmed alert whose entry or dancer has a video online since; queued after a
  // publishing commit and swept on a schedule. Every alert is its own claim, so a run twice sends once.
  'online-alert-notify': z.object({}),
  // Deletes what the privacy page says is kept no longer (a daily schedule; docs/decisions/030).
  'retention-sweep': z.object({}),
  // Aborts the bulk upload's multipart uploads nobody has touched for days (a schedule; decision 033).
  'sweep-abandoned-uploads': z.object({}),
} as const;

export type JobName = keyof typeof jobPayloadSchemas;
export type JobPayload<N extends JobName> = z.infer<(typeof jobPayloadSchemas)[N]>;
export const jobNames = Object.keys(jobPayloadSchemas) as JobName[];

export function isJobName(value: string): value is JobName {
  return Object.hasOwn(jobPayloadSchemas, value);
}

/** What a handler reports: it did the work, or there was nothing to do (already done, gone). */
export type JobOutcome = 'done' | 'skipped' | { status: 'done' | 'skipped'; [key: string]: unknown };
