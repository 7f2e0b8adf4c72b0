import { UnrecoverableError } from 'bullmq';
import { eq } from 'drizzle-orm';
import { purchases } from '@app/shared/db';
import {
  announcePurchaseSettled,
  checkCheckoutSession,
  fulfilCheckoutSession,
  fulfilOffline,
  markStripeEventProcessed,
  PurchaseNotFoundError,
  refundPayment,
  type FulfilmentResult,
} from '@app/shared/sales';
import { gstDefaults, RefundExceedsPayment } from '@app/shared/gst';
import type { JobHandler } from '../context.ts';

/** Stripe answered that the request itself is wrong (no such session, bad key): retrying cannot help. */
function isPermanentStripeError(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return (
    (error as { type?: unknown }).type !== undefined &&
    typeof status === 'number' &&
    status >= 400 &&
    status < 500 &&
    status !== 409 &&
    status !== 429
  );
}

/**
 * Settles a purchase: from Stripe's current state for Checkout and refund events, or as paid for an
 * offline payment the owner recorded. A paid purchase without a receipt queues one (its job id makes
 * that once), also when a previous attempt crashed between the sale and the enqueue.
 */
export const recordSale: JobHandler<'record-sale'> = async (
  payload,
  { config, db, logger, producer, redis, stripe },
) => {
  let result: FulfilmentResult | null;
  try {
    // The settings as they are when the payment is settled (read in its transaction); the document
    // keeps its own copy.
    const documents = { gstDefaults: gstDefaults(config) };
    if (payload.kind === 'offline') {
      result = await fulfilOffline(db, documents, payload.purchaseId);
    } else if (payload.kind === 'check') {
      if (!stripe)
        throw new UnrecoverableError('STRIPE_SECRET_KEY is not set; cannot read the payment from Stripe');
      const [purchase] = await db
        .select({ sessionId: purchases.checkoutSessionId })
        .from(purchases)
        .where(eq(purchases.id, payload.purchaseId));
      result = purchase?.sessionId
        ? await checkCheckoutSession(db, stripe, documents, purchase.sessionId)
        : null;
    } else {
      if (!stripe)
        throw new UnrecoverableError('STRIPE_SECRET_KEY is not set; cannot read the payment from Stripe');
      if (payload.kind === 'refund')
        result = await refundPayment(db, stripe, documents, payload.paymentIntentId);
      else if (payload.eventId === undefined)
        result = await checkCheckoutSession(db, stripe, documents, payload.checkoutSessionId);
      else
        result = await fulfilCheckoutSession(
          db,
          stripe,
          documents,
          payload.checkoutSessionId,
          payload.failed ? 'failed' : undefined,
        );
    }
  } catch (error) {
    if (error instanceof PurchaseNotFoundError) throw new UnrecoverableError(error.message);
    if (error instanceof RefundExceedsPayment) {
      logger.error({ err: error, payload }, 'refund larger than the payment: no credit note issued');
      throw new UnrecoverableError(error.message);
    }
    if (isPermanentStripeError(error))
      throw new UnrecoverableError(`Stripe refused: ${(error as Error).message}`);
    throw error;
  }
  if (result?.changed) {
    // Only a shortcut for a buyer's page waiting on the purchase: its next poll reads the same row.
    // First, as the buyer waits for it and for nothing below (a crash before the jobs are queued
    // leaves them to this job's retry, which finds the receipt still due).
    await announcePurchaseSettled(redis, config.QUEUE_PREFIX, result.purchaseId).catch((error: unknown) =>
      logger.warn({ err: error, purchaseId: result.purchaseId }, 'could not announce the settled purchase'),
    );
  }
  // The follow-up jobs are independent of each other: queued at once.
  await Promise.all([
    result?.receiptDue && producer.enqueue('purchase-receipt', { purchaseId: result.purchaseId }),
    result?.changed &&
      result.status === 'expired' &&
      producer.enqueue('checkout-reminder', { purchaseId: result.purchaseId }),
    result?.creditNoteId && producer.enqueue('tax-document-mail', { documentId: result.creditNoteId }),
    result?.invoiceId &&
      payload.kind !== 'offline' &&
      producer.enqueue('read-payment-fee', { purchaseId: result.purchaseId }),
  ]);
  if ((payload.kind === 'checkout' || payload.kind === 'refund') && payload.eventId)
    await markStripeEventProcessed(db, payload.eventId, payload.eventType ?? `record-sale.${payload.kind}`);
  if (!result) {
    logger.info({ payload }, 'record-sale: not one of our payments, ignored');
    return { status: 'skipped', reason: 'not our payment' };
  }
  return {
    status: result.changed || result.saleRecorded ? 'done' : 'skipped',
    purchase: result.status,
    saleRecorded: result.saleRecorded,
  };
};
