import { Router } from 'express';
import { z } from 'zod';
import {
  cartCheckoutRequestSchema,
  cartCheckRequestSchema,
  checkoutRequestSchema,
  purchaseStatusQuerySchema,
} from '@app/shared/schemas';
import { showcaseBundle } from '@app/shared/sales';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { addressKey } from '../../http/client-address.ts';
import {
  CHECKABLE_MS,
  checkoutCart,
  checkoutOneVideo,
  priceCart,
  purchaseBySession,
  purchaseStatusOf,
} from './checkout.service.ts';

export function checkoutRoutes(deps: Deps): Router {
  const router = Router();

  router.post('/api/checkout', rateLimiter(deps, limits.checkout), async (req, res) => {
    const input = checkoutRequestSchema.parse(req.body ?? {});
    res.status(201).json(await checkoutOneVideo(deps, input));
  });

  router.post('/api/cart/checkout', rateLimiter(deps, limits.checkout), async (req, res) => {
    const input = cartCheckoutRequestSchema.parse(req.body ?? {});
    res.status(201).json(await checkoutCart(deps, input));
  });

  // The cart page prices what the browser kept (no purchase is written): prices, titles, what changed.
  router.post('/api/cart/check', rateLimiter(deps, limits.cartCheck), async (req, res) => {
    const { items } = cartCheckRequestSchema.parse(req.body ?? {});
    const { priced, problems, totalCents } = await priceCart(deps, items);
    res.set('Cache-Control', 'no-store').json({ items: priced, totalCents, problems });
  });

  router.get('/api/showcases/:id/bundle', async (req, res) => {
    const id = z.string().trim().min(1).max(100).parse(req.params.id);
    const bundle = await showcaseBundle(deps.db, id);
    if (!bundle) throw notFound('This showcase has no bundle');
    res.set('Cache-Control', 'no-cache').json(bundle);
  });

  router.get('/api/purchases/:sessionId', rateLimiter(deps, limits.purchaseStatus), async (req, res) => {
    const sessionId = z.string().trim().min(1).max(255).parse(req.params.sessionId);
    const { wait } = purchaseStatusQuerySchema.parse(req.query);
    let purchase = await purchaseBySession(deps, sessionId);
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
        .enqueue('record-sale', { kind: 'check', purchaseId: purchase.id })
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
      purchase = (await purchaseBySession(deps, sessionId)) ?? purchase;
      if (purchase.status === 'pending') {
        await settled;
        purchase = (await purchaseBySession(deps, sessionId)) ?? purchase;
      }
      answered.abort();
    }
    res.set('Cache-Control', 'no-store').json(await purchaseStatusOf(deps, purchase, sessionId));
  });

  return router;
}
