import { Router } from 'express';
import {
  insertTestimonialSchema,
  serialIdSchema,
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

const idSchema = serialIdSchema('Testimonial');

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

  // Before /:id, which would otherwise take "order" for an id.
  admin.put(
    '/api/admin/testimonials/order',
    publicCache.writeRoute(async (req) => {
      await orderTestimonials(db, testimonialOrderSchema.parse(req.body ?? {}).ids);
      return adminTestimonials(db);
    }),
  );

  publicCache.writeRoutes(admin, '/api/admin/testimonials', idSchema, {
    post: (body) => createTestimonial(db, insertTestimonialSchema.parse(body)),
    put: (id, body) => updateTestimonial(db, id, updateTestimonialSchema.parse(body)),
    delete: (id) => deleteTestimonial(db, id),
  });
}
