import type { Db } from '@app/shared/db';
import { publicEvents } from '../events/events.service.ts';
import { publicPortfolio } from '../portfolio/portfolio.service.ts';
import { publicTestimonials } from '../testimonials/testimonials.service.ts';

/** The lists the home page shows when it opens, by route (the gallery opens on solo; api/src/site/web.ts). */
export const homeLists = {
  '/api/portfolio': (db: Db) => publicPortfolio(db),
  '/api/portfolio?category=solo': (db: Db) => publicPortfolio(db, 'solo'),
  '/api/events': publicEvents,
  '/api/testimonials': publicTestimonials,
};
