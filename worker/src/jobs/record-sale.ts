import { UnrecoverableError } from 'bullmq';
import {
  fulfilCheckoutSession,
  refundPayment,
  transitionPurchase,
  type FulfilmentResult,
} from '@app/shared/sales';
import { createStripe } from '@app/shared/stripe';
import type { JobHandler } from '../context.ts';

/**
 * Settles a purchase: from Stripe's current state for Checkout events, or as paid for an offline
 * payment the owner recorded. A newly recorded sale queues the buyer's receipt.
 */
export const recordSale: JobHandler<'record-sale'> = async (payload, { db, config, producer }) => {
  let result: FulfilmentResult;
  if (payload.kind === 'offline') {
    result = await transitionPurchase(db, payload.purchaseId, 'paid', {
      transactionId: `offline_${payload.purchaseId}`,
    });
  } else {
    const stripe = createStripe(config);
    if (!stripe)
      throw new UnrecoverableError('STRIPE_SECRET_KEY is not set; cannot read the payment from Stripe');
    // A purchase not found yet is retried: the refund may have overtaken the payment it refunds.
    result =
      payload.kind === 'checkout'
        ? await fulfilCheckoutSession(
            db,
            stripe,
            payload.checkoutSessionId,
            payload.failed ? 'failed' : undefined,
          )
        : await refundPayment(db, payload.paymentIntentId);
  }
  if (result.saleRecorded) await producer.enqueue('purchase-receipt', { purchaseId: result.purchaseId });
  return { status: result.saleRecorded ? 'done' : 'skipped', purchase: result.status };
};
