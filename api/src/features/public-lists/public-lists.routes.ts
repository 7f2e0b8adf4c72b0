import { Router } from 'express';
import { z } from 'zod';
import { portfolioCategorySchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { publicEvents } from '../events/events.service.ts';
import { publicPortfolio } from '../portfolio/portfolio.service.ts';

const portfolioQuerySchema = z.object({ category: portfolioCategorySchema.optional() });

/** The public portfolio and the competitions list (kept between requests: PublicCache). */
export function publicListRoutes({ db, publicCache }: Deps): Router {
  const router = Router();

  router.get('/api/portfolio', async (req, res) => {
    const { category } = portfolioQuerySchema.parse(req.query);
    const url = category ? `/api/portfolio?category=${category}` : '/api/portfolio';
    await publicCache.respond(req, res, url, () => publicPortfolio(db, category));
  });

  router.get('/api/events', async (req, res) => {
    await publicCache.respond(req, res, '/api/events', () => publicEvents(db));
  });

  return router;
}
