import express, { Router } from 'express';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { purchases } from '@app/shared/db';
import { checkoutRequestSchema, purchaseStatusQuerySchema } from '@app/shared/schemas';
import type { JobPayload } from '@app/shared/queue';
import { isStripeEventProcessed } from '@app/shared/sales';
import type { Stripe } from '@app/shared/stripe';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { addressKey } from '../../http/client-address.ts';
import { isValidVideoToken } from '../videos/access.ts';
import { videoWithVisibility } from '../videos/library.service.ts';

export const PAYMENT_UNAVAILABLE = 'Payment System Temporarily Unavailable';
/**
 * How long a buyer has to pay: the Checkout Session expires then (Stripe allows 30 minutes to 24
 * hours), Stripe sends checkout.session.expired and the purchase becomes expired.
 */
export const CHECKOUT_SESSION_MS = 60 * 60_000;
/** A pending purchase is checked with Stripe from its status page only while it could still be paid. */
const CHECKABLE_MS = CHECKOUT_SESSION_MS + 5 * 60_000;

/** Checkout Session events we act on; every other event is acknowledged and ignored. */
const checkoutEvents = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

/** The record-sale job for an event, or null for events that are not about one of our purchases. */
function jobFor(event: Stripe.Event): JobPayload<'record-sale'> | null {
  if (checkoutEvents.has(event.type)) {
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
  if (event.type === 'charge.refunded') {
    const charge = event.data.object as Stripe.Charge;
    const paymentIntentId =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    // The charge does not carry our metadata: the job asks Stripe whose payment intent it is.
    if (!paymentIntentId) return null;
    return { kind: 'refund', paymentIntentId, eventId: event.id, eventType: event.type };
  }
  return null;
}

/** The webhook needs the exact bytes Stripe signed, so it is mounted before the JSON parser. */
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
    const job = jobFor(event);
    if (!job) return void res.json({ received: true, ignored: true });
    try {
      await deps.producer.enqueue('record-sale', job);
    } catch (error) {
      // 2xx only once the work is queued: with Redis down Stripe gets 503 and delivers again later.
      req.log.error({ err: error, eventId: event.id }, 'record-sale not queued');
      throw new HttpError(503, 'Temporarily unable to accept the event', { 'Retry-After': '30' });
    }
    res.json({ received: true });
  });
  return router;
}

export function checkoutRoutes(deps: Deps): Router {
  const { db, config } = deps;
  const router = Router();

  router.post('/api/checkout', rateLimiter(deps, limits.checkout), async (req, res) => {
    const input = checkoutRequestSchema.parse(req.body ?? {});
    const video = await videoWithVisibility(db, input.videoId);
    // A hidden video is not for sale any more.
    if (!video?.shown) throw notFound('Video not found');
    if (video.priceCents === 0) throw new HttpError(400, 'This video is free: download it from its page');
    if (video.passwordProtected && !isValidVideoToken(deps, video.id, input.verificationToken)) {
      throw new HttpError(401, 'Password verification required');
    }
    if (!deps.stripe) throw new HttpError(503, PAYMENT_UNAVAILABLE);

    const [purchase] = await db
      .insert(purchases)
      .values({
        videoId: video.id,
        buyerName: input.customerName,
        buyerEmail: input.customerEmail,
        amountCents: video.priceCents,
        currency: config.CURRENCY,
      })
      .returning();
    let session: Stripe.Checkout.Session;
    try {
      session = await deps.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          expires_at: Math.floor((Date.now() + CHECKOUT_SESSION_MS) / 1000),
          client_reference_id: purchase!.id,
          customer_email: input.customerEmail,
          allow_promotion_codes: true,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: config.CURRENCY,
                unit_amount: video.priceCents,
                product_data: {
                  name: video.title,
                  description: video.description.slice(0, 500) || undefined,
                },
              },
            },
          ],
          metadata: { purchaseId: purchase!.id, videoId: video.id },
          payment_intent_data: { metadata: { purchaseId: purchase!.id, videoId: video.id } },
          success_url: `${config.PUBLIC_URL}/video-purchase-success?session_id={CHECKOUT_SESSION_ID}&video_id=${encodeURIComponent(video.id)}`,
          cancel_url: `${config.PUBLIC_URL}/video/${encodeURIComponent(video.id)}/purchase`,
        },
        { idempotencyKey: `checkout-${purchase!.id}` },
      );
    } catch (error) {
      req.log.error({ err: error, purchaseId: purchase!.id }, 'Stripe checkout failed');
      await db
        .update(purchases)
        .set({ status: 'failed', updatedAt: new Date() })
        .where(eq(purchases.id, purchase!.id));
      throw new HttpError(503, PAYMENT_UNAVAILABLE);
    }
    await db.update(purchases).set({ checkoutSessionId: session.id }).where(eq(purchases.id, purchase!.id));
    if (!session.url) throw new HttpError(503, PAYMENT_UNAVAILABLE);
    res.status(201).json({ url: session.url, sessionId: session.id });
  });

  router.get('/api/purchases/:sessionId', rateLimiter(deps, limits.purchaseStatus), async (req, res) => {
    const sessionId = z.string().trim().min(1).max(255).parse(req.params.sessionId);
    const { wait } = purchaseStatusQuerySchema.parse(req.query);
    const read = async () => {
      const [row] = await db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId));
      return row;
    };
    let purchase = await read();
    if (!purchase) throw notFound('Purchase not found');
    // The webhook may be late: ask the worker to check Stripe now (at most one check per few seconds),
    // while the session can still be paid; after that Stripe's expiry event settles it.
    if (
      purchase.status === 'pending' &&
      purchase.source === 'stripe' &&
      deps.stripe &&
      Date.now() - purchase.createdAt.getTime() < CHECKABLE_MS
    ) {
      await deps.producer
        .enqueue('record-sale', { kind: 'checkout', checkoutSessionId: sessionId })
        .catch(() => {});
    }
    if (purchase.status === 'pending' && wait > 0) {
      // Held until the worker announces this purchase settled (decision 014); the row decides.
      const answered = new AbortController();
      res.once('close', () => answered.abort());
      const settled = deps.purchaseWaiters.wait(
        purchase.id,
        wait * 1_000,
        answered.signal,
        addressKey(req.ip),
      );
      purchase = (await read()) ?? purchase;
      if (purchase.status === 'pending') {
        await settled;
        purchase = (await read()) ?? purchase;
      }
      answered.abort();
    }
    // The download page itself issues the short-lived signed link, once it has checked this purchase.
    const downloadUrl =
      purchase.status === 'paid'
        ? `/video/${encodeURIComponent(purchase.videoId)}/download?session_id=${encodeURIComponent(sessionId)}`
        : undefined;
    res
      .set('Cache-Control', 'no-store')
      .json({ status: purchase.status, videoId: purchase.videoId, ...(downloadUrl && { downloadUrl }) });
  });

  return router;
}
