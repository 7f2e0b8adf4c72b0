import { Router } from 'express';
import { z } from 'zod';
import {
  cartCheckoutRequestSchema,
  cartCheckRequestSchema,
  checkoutRequestSchema,
} from '@app/shared/schemas';
import { showcaseBundle } from '@app/shared/sales';
import type { Deps } from '../../deps.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { showcaseGate } from '../privacy/privacy.service.ts';
import { requireShowcaseAccess, showcaseOpener } from '../privacy/showcase-access.ts';
import { checkoutCart, checkoutOneVideo, priceCart } from './checkout.service.ts';

export function checkoutRoutes(deps: Deps): Router {
  const router = Router();

  router.post('/api/checkout', rateLimiter(deps, limits.checkout), async (req, res) => {
    const input = checkoutRequestSchema.parse(req.body ?? {});
    res.status(201).json(await checkoutOneVideo(deps, input, showcaseOpener(deps, req)));
  });

  router.post('/api/cart/checkout', rateLimiter(deps, limits.checkout), async (req, res) => {
    const input = cartCheckoutRequestSchema.parse(req.body ?? {});
    res.status(201).json(await checkoutCart(deps, input, showcaseOpener(deps, req)));
  });

  // The cart page prices what the browser kept (no purchase is written): prices, titles, what changed.
  router.post('/api/cart/check', rateLimiter(deps, limits.cartCheck), async (req, res) => {
    const { items } = cartCheckRequestSchema.parse(req.body ?? {});
    const { priced, problems, totalCents } = await priceCart(deps, items, showcaseOpener(deps, req));
    res.set('Cache-Control', 'no-store').json({ items: priced, totalCents, problems });
  });

  // null when the showcase sells no bundle: a normal state of its page, not an error (nor a console one).
  router.get('/api/showcases/:id/bundle', async (req, res) => {
    const id = z.string().trim().min(1).max(100).parse(req.params.id);
    const bundle = await showcaseBundle(deps.db, id);
    if (bundle) requireShowcaseAccess(deps, req, await showcaseGate(deps.db, id));
    res.set('Cache-Control', 'no-cache').json(bundle);
  });

  return router;
}
