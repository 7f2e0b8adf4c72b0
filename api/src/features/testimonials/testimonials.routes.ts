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
  // Each write then tells the public cache, before answering, so no page shows the old quotes after it.
  admin.put('/api/admin/testimonials/order', async (req, res) => {
    await orderTestimonials(db, testimonialOrderSchema.parse(req.body ?? {}).ids);
    await publicCache.changed();
    res.json(await adminTestimonials(db));
  });

  admin.post('/api/admin/testimonials', async (req, res) => {
    const testimonial = await createTestimonial(db, insertTestimonialSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.status(201).json(testimonial);
  });

  admin.put('/api/admin/testimonials/:id', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    const testimonial = await updateTestimonial(db, id, updateTestimonialSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(testimonial);
  });

  admin.delete('/api/admin/testimonials/:id', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    await deleteTestimonial(db, id);
    await publicCache.changed();
    res.json({ id, deleted: true });
  });
}
