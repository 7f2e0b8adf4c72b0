import { Router } from 'express';
import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { events, images, portfolioItems, type Db } from '@app/shared/db';
import type { PortfolioCategory } from '@app/shared/constants';
import { portfolioCategorySchema, type PublicPortfolioImage } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { publicTestimonials } from '../testimonials/testimonials.routes.ts';

const portfolioQuerySchema = z.object({ category: portfolioCategorySchema.optional() });

/** Published photos whose picture is ready (built-in pictures have none to wait for), in the owner's order. */
function portfolioList(db: Db, category?: PortfolioCategory): Promise<PublicPortfolioImage[]> {
  return db
    .select({
      id: portfolioItems.id,
      imageUrl: portfolioItems.imageUrl,
      alt: portfolioItems.alt,
      category: portfolioItems.category,
      featured: portfolioItems.featured,
      width: images.width,
      height: images.height,
      placeholder: images.placeholder,
    })
    .from(portfolioItems)
    .leftJoin(images, eq(images.id, portfolioItems.imageId))
    .where(
      and(
        eq(portfolioItems.published, true),
        or(isNull(portfolioItems.imageId), eq(images.status, 'ready')),
        category ? eq(portfolioItems.category, category) : undefined,
      ),
    )
    .orderBy(...(category ? [] : [asc(portfolioItems.category)]), asc(portfolioItems.position), asc(portfolioItems.id));
}

function eventList(db: Db) {
  const today = sql`(now() at time zone 'Pacific/Auckland')::date`;
  return (
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
      )
  );
}

/** The lists the home page shows when it opens, by route (the gallery opens on solo; api/src/web.ts). */
export const homeLists = {
  '/api/portfolio': (db: Db) => portfolioList(db),
  '/api/portfolio?category=solo': (db: Db) => portfolioList(db, 'solo'),
  '/api/events': eventList,
  '/api/testimonials': publicTestimonials,
};

/** The public portfolio and the competitions list (kept between requests: PublicCache). */
export function contentRoutes({ db, publicCache }: Deps): Router {
  const router = Router();

  router.get('/api/portfolio', async (req, res) => {
    const { category } = portfolioQuerySchema.parse(req.query);
    const url = category ? `/api/portfolio?category=${category}` : '/api/portfolio';
    await publicCache.respond(req, res, url, () => portfolioList(db, category));
  });

  router.get('/api/events', async (req, res) => {
    await publicCache.respond(req, res, '/api/events', () => eventList(db));
  });

  return router;
}
