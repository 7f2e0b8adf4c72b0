import { and, eq, sql } from 'drizzle-orm';
import { purchases, sales, type Db, type PurchaseStatus } from '../db/index.ts';
import type { Stripe } from '../stripe.ts';

/**
 * The one fulfilment function (DESIGN.md section 4), used by the record-sale job and by the success
 * page when the webhook is late. It never trusts the event's copy of the session: it reads Stripe's
 * current state and moves the purchase forward only (a refund is final; paid never goes back).
 */

/** Which states a purchase may move to from each state. */
const allowed: Record<PurchaseStatus, PurchaseStatus[]> = {
  // A refund may be the first we hear of a payment (events arrive in any order); it is final.
  pending: ['paid', 'failed', 'expired', 'refunded'],
  failed: ['paid', 'refunded'],
  expired: ['paid', 'refunded'],
  paid: ['refunded'],
  refunded: [],
};

export interface FulfilmentResult {
  purchaseId: string;
  status: PurchaseStatus;
  /** True when this call recorded the sale (so the receipt is due). */
  saleRecorded: boolean;
}

export class PurchaseNotFoundError extends Error {}

/** Moves a purchase to `next` if the state machine allows it; records the sale when it becomes paid. */
export async function transitionPurchase(
  db: Db,
  purchaseId: string,
  next: PurchaseStatus,
  payment: { paymentIntentId?: string | null; transactionId?: string } = {},
): Promise<FulfilmentResult> {
  return db.transaction(async (tx) => {
    const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, purchaseId)).for('update');
    if (!purchase) throw new PurchaseNotFoundError(`No purchase ${purchaseId}`);
    if (purchase.status === next || !allowed[purchase.status].includes(next)) {
      return { purchaseId, status: purchase.status, saleRecorded: false };
    }
    await tx
      .update(purchases)
      .set({
        status: next,
        updatedAt: new Date(),
        ...(payment.paymentIntentId && { paymentIntentId: payment.paymentIntentId }),
        ...(next === 'paid' && { paidAt: new Date() }),
      })
      .where(eq(purchases.id, purchaseId));
    if (next !== 'paid') return { purchaseId, status: next, saleRecorded: false };

    const transactionId =
      payment.transactionId ??
      payment.paymentIntentId ??
      purchase.paymentIntentId ??
      `checkout_${purchase.checkoutSessionId}`;
    const inserted = await tx
      .insert(sales)
      .values({
        videoId: purchase.videoId,
        purchaseId: purchase.id,
        amountCents: purchase.amountCents,
        currency: purchase.currency,
        customerEmail: purchase.buyerEmail,
        transactionId,
      })
      .onConflictDoNothing({ target: sales.transactionId })
      .returning({ id: sales.id });
    return { purchaseId, status: next, saleRecorded: inserted.length > 0 };
  });
}

/** Reads the Checkout Session from Stripe and applies what it says to our purchase. */
export async function fulfilCheckoutSession(
  db: Db,
  stripe: Stripe,
  checkoutSessionId: string,
  hint?: 'failed',
): Promise<FulfilmentResult> {
  const [purchase] = await db
    .select()
    .from(purchases)
    .where(eq(purchases.checkoutSessionId, checkoutSessionId));
  if (!purchase) throw new PurchaseNotFoundError(`No purchase for checkout session ${checkoutSessionId}`);
  const session = await stripe.checkout.sessions.retrieve(checkoutSessionId);
  const paymentIntentId =
    typeof session.payment_intent === 'string'
      ? session.payment_intent
      : (session.payment_intent?.id ?? null);

  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
    return transitionPurchase(db, purchase.id, 'paid', { paymentIntentId });
  }
  if (session.status === 'expired')
    return transitionPurchase(db, purchase.id, 'expired', { paymentIntentId });
  // An async payment (bank debit) that failed: the session is complete but will never be paid.
  if (hint === 'failed' && session.status === 'complete')
    return transitionPurchase(db, purchase.id, 'failed', { paymentIntentId });
  if (paymentIntentId && !purchase.paymentIntentId) {
    await db
      .update(purchases)
      .set({ paymentIntentId })
      .where(and(eq(purchases.id, purchase.id), sql`${purchases.paymentIntentId} is null`));
  }
  return { purchaseId: purchase.id, status: purchase.status, saleRecorded: false };
}

/** A refund: matched by payment intent, since the refund's event carries a charge, not the session. */
export async function refundPayment(db: Db, paymentIntentId: string): Promise<FulfilmentResult> {
  const [purchase] = await db.select().from(purchases).where(eq(purchases.paymentIntentId, paymentIntentId));
  if (!purchase) throw new PurchaseNotFoundError(`No purchase for payment ${paymentIntentId}`);
  return transitionPurchase(db, purchase.id, 'refunded');
}
