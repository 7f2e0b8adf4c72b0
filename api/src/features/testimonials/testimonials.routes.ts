import { Router } from 'express';
import { z } from 'zod';
import {
  insertTestimonialSchema,
  testimonialOrderSchema,
  updateTestimonialSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import {
  adminTestimonials,
  createTestimonial,
  deleteTestimonial,
  orderTestimonials,
  publicTestimonials,
  updateTestimonial,
} from './testimonials.service.ts';

const idSchema = z.coerce
  .number({ error: 'Testimonial id must be a number' })
  .int()
  .positive()
  .max(2_147_483_647);

export function testimonialRoutes({ db, publicCache }: Deps): Router {
  const router = Router();
  router.get('/api/testimonials', async (req, res) => {
    await publicCache.respond(req, res, '/api/testimonials', () => publicTestimonials(db));
  });
  return router;
}

/** The owner's screen: add, edit, hide, reorder and remove quotes (all on the admin router). */
export function registerAdminTestimonialRoutes(admin: Router, { db, publicCache }: Deps): void {
  admin.get('/api/admin/testimonials', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminTestimonials(db));
  });

  admin.post(
    '/api/admin/testimonials',
    publicCache.writeRoute(
      (req) => createTestimonial(db, insertTestimonialSchema.parse(req.body ?? {})),
      201,
    ),
  );

  // Before /:id, which would otherwise take "order" for an id.
  admin.put(
    '/api/admin/testimonials/order',
    publicCache.writeRoute(async (req) => {
      await orderTestimonials(db, testimonialOrderSchema.parse(req.body ?? {}).ids);
      return adminTestimonials(db);
    }),
  );

  admin.put(
    '/api/admin/testimonials/:id',
    publicCache.writeRoute((req) =>
      updateTestimonial(db, idSchema.parse(req.params.id), updateTestimonialSchema.parse(req.body ?? {})),
    ),
  );

  admin.delete(
    '/api/admin/testimonials/:id',
    publicCache.deleteRoute(idSchema, (id) => deleteTestimonial(db, id)),
  );
}
