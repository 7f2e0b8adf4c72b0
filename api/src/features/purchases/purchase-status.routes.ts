import { Router } from 'express';
import { z } from 'zod';
import { purchaseStatusQuerySchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { addressKey } from '../../http/client-address.ts';
import { CHECKABLE_MS } from '../checkout/checkout.service.ts';
import { purchaseBySession, purchaseStatusOf } from './purchase-status.service.ts';

/** The buyer's purchase status, asked by the success page until the payment is recorded. */
export function purchaseStatusRoutes(deps: Deps): Router {
  const router = Router();

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
      await deps.producer.enqueue('record-sale', { kind: 'check', purchaseId: purchase.id }).catch(() => {});
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
