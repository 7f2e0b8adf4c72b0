import { Router } from 'express';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { events, portfolioItems } from '@app/shared/db';
import { portfolioCategorySchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';

const portfolioQuerySchema = z.object({ category: portfolioCategorySchema.optional() });

/** The public portfolio and the competitions list (kept between requests: PublicCache). */
export function contentRoutes({ db, publicCache }: Deps): Router {
  const router = Router();

  router.get('/api/portfolio', async (req, res) => {
    const { category } = portfolioQuerySchema.parse(req.query);
    const url = category ? `/api/portfolio?category=${category}` : '/api/portfolio';
    await publicCache.respond(req, res, url, () =>
      db
        .select({
          id: portfolioItems.id,
          imageUrl: portfolioItems.imageUrl,
          alt: portfolioItems.alt,
          category: portfolioItems.category,
          featured: portfolioItems.featured,
        })
        .from(portfolioItems)
        .where(category ? eq(portfolioItems.category, category) : sql`${portfolioItems.category} <> 'hero'`)
        .orderBy(desc(portfolioItems.featured), asc(portfolioItems.id)),
    );
  });

  router.get('/api/events', async (req, res) => {
    const today = sql`(now() at time zone 'Pacific/Auckland')::date`;
    await publicCache.respond(req, res, '/api/events', () =>
      db
        .select({
          id: events.id,
          title: events.title,
          description: events.description,
          date: events.date,
          location: events.location,
          eventType: events.eventType,
          imageUrl: events.imageUrl,
          jotformUrl: events.jotformUrl,
        })
        .from(events)
        // Upcoming competitions first, soonest first; then past ones, latest first.
        .orderBy(
          sql`${events.date} < ${today}`,
          sql`case when ${events.date} >= ${today} then ${events.date} end asc`,
          desc(events.date),
          asc(events.id),
        ),
    );
  });

  return router;
}
