import { UnrecoverableError } from 'bullmq';
import { eq } from 'drizzle-orm';
import { paymentFees } from '@app/shared/db';
import type { JobHandler } from '../context.ts';
import { purchaseById } from '@app/shared/sales';

/**
 * Reads Stripe's fee for a card payment (the charge's balance transaction) into payment_fees, for the
 * GST report: here in the worker after the payment, never on a request. Stripe may create the
 * balance transaction a little after the charge: until then the job fails and is retried.
 */
export const readPaymentFee: JobHandler<'read-payment-fee'> = async ({ purchaseId }, { db, stripe }) => {
  const purchase = await purchaseById(db, purchaseId);
  if (!purchase?.paymentIntentId || purchase.source !== 'stripe') return 'skipped';
  if (!stripe) throw new UnrecoverableError('STRIPE_SECRET_KEY is not set; cannot read the fee');
  const [known] = await db.select().from(paymentFees).where(eq(paymentFees.purchaseId, purchaseId));
  if (known) return 'skipped';
  const intent = await stripe.paymentIntents.retrieve(purchase.paymentIntentId, {
    expand: ['latest_charge'],
  });
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  if (!charge) throw new Error(`payment ${intent.id} has no charge yet`);
  const transactionId =
    typeof charge.balance_transaction === 'string'
      ? charge.balance_transaction
      : charge.balance_transaction?.id;
  if (!transactionId) throw new Error(`charge ${charge.id} has no balance transaction yet`);
  const transaction = await stripe.balanceTransactions.retrieve(transactionId);
  await db
    .insert(paymentFees)
    .values({
      purchaseId,
      chargeId: charge.id,
      balanceTransactionId: transaction.id,
      methodType: charge.payment_method_details?.type ?? null,
      feeCents: transaction.fee,
      netCents: transaction.net,
      availableOn: new Date(transaction.available_on * 1000),
    })
    .onConflictDoNothing();
  return 'done';
};
