import express, { Router } from 'express';
import type { JobPayload } from '@app/shared/queue';
import { isStripeEventProcessed } from '@app/shared/sales';
import type { Stripe } from '@app/shared/stripe';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

type RecordSale = JobPayload<'record-sale'>;

/** A Checkout Session event: settle that session's purchase (every item of it) from Stripe's state. */
function checkoutSessionJob(event: Stripe.Event): RecordSale | null {
  const session = event.data.object as Stripe.Checkout.Session;
  // Every session we create names its purchase; others (payment links, other apps) are not ours.
  if (!session.metadata?.purchaseId) return null;
  return {
    kind: 'checkout',
    checkoutSessionId: session.id,
    eventId: event.id,
    eventType: event.type,
    failed: event.type === 'checkout.session.async_payment_failed',
  };
}

/** A refund: the charge does not carry our metadata, so the job asks Stripe whose payment intent it is. */
function refundJob(event: Stripe.Event): RecordSale | null {
  const charge = event.data.object as Stripe.Charge;
  const paymentIntentId =
    typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!paymentIntentId) return null;
  return { kind: 'refund', paymentIntentId, eventId: event.id, eventType: event.type };
}

/** The events we act on, by type; every other event is acknowledged and ignored. */
const handlers: Record<string, (event: Stripe.Event) => RecordSale | null> = {
  'checkout.session.completed': checkoutSessionJob,
  'checkout.session.async_payment_succeeded': checkoutSessionJob,
  'checkout.session.async_payment_failed': checkoutSessionJob,
  'checkout.session.expired': checkoutSessionJob,
  'charge.refunded': refundJob,
};

/**
 * POST /api/stripe/webhook checks the signature and queues a record-sale job; the worker does the rest.
 * It needs the exact bytes Stripe signed, so it is mounted before the JSON parser.
 */
export function stripeWebhookRoutes(deps: Deps): Router {
  const router = Router();
  router.post('/api/stripe/webhook', express.raw({ type: '*/*', limit: '1mb' }), async (req, res) => {
    const { stripe, config } = deps;
    if (!stripe || !config.STRIPE_WEBHOOK_SECRET) throw new HttpError(503, 'Payments are not configured');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        req.body as Buffer,
        req.get('stripe-signature') ?? '',
        config.STRIPE_WEBHOOK_SECRET,
      );
    } catch {
      throw new HttpError(400, 'Invalid Stripe signature');
    }
    // A redelivery of an event already handled: acknowledge it without queuing again.
    if (await isStripeEventProcessed(deps.db, event.id)) return void res.json({ received: true });
    const job = handlers[event.type]?.(event) ?? null;
    if (!job) return void res.json({ received: true, ignored: true });
    try {
      await deps.producer.enqueue('record-sale', job);
    } catch (error) {
      // 2xx only once the work is queued: with Redis down Stripe gets 503 and delivers again later.
      req.log.error({ err: error, eventId: event.id }, 'record-sale not queued');
      throw new HttpError(503, 'Temporarily unable to accept the event', {
        headers: { 'Retry-After': '30' },
      });
    }
    res.json({ received: true });
  });
  return router;
}
