import { Router } from 'express';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { testimonials, type Db } from '@app/shared/db';
import {
  insertTestimonialSchema,
  testimonialOrderSchema,
  updateTestimonialSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

const idSchema = z.coerce
  .number({ error: 'Testimonial id must be a number' })
  .int()
  .positive()
  .max(2_147_483_647);

const ordered = [asc(testimonials.position), asc(testimonials.id)];

/** The quotes the home page shows, in the owner's order (also sent with the home page: api/src/site/web.ts). */
export const publicTestimonials = (db: Db) =>
  db
    .select({
      id: testimonials.id,
      name: testimonials.name,
      quote: testimonials.quote,
      event: testimonials.event,
    })
    .from(testimonials)
    .where(eq(testimonials.published, true))
    .orderBy(...ordered);

const adminColumns = {
  id: testimonials.id,
  name: testimonials.name,
  quote: testimonials.quote,
  event: testimonials.event,
  position: testimonials.position,
  published: testimonials.published,
};

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
    const rows = await db
      .select(adminColumns)
      .from(testimonials)
      .orderBy(...ordered);
    res.set('Cache-Control', 'no-store').json(rows);
  });

  admin.post('/api/admin/testimonials', async (req, res) => {
    const input = insertTestimonialSchema.parse(req.body ?? {});
    // A new quote goes last.
    const [row] = await db
      .insert(testimonials)
      .values({
        ...input,
        position: sql`(select coalesce(max(${testimonials.position}), -1) + 1 from ${testimonials})`,
      })
      .returning(adminColumns);
    await publicCache.changed();
    res.status(201).json(row);
  });

  // Before /:id, which would otherwise take "order" for an id.
  admin.put('/api/admin/testimonials/order', async (req, res) => {
    const { ids } = testimonialOrderSchema.parse(req.body ?? {});
    if (new Set(ids).size !== ids.length) throw new HttpError(400, 'Each testimonial may appear only once');
    await db.transaction(async (tx) => {
      const existing = await tx.select({ id: testimonials.id }).from(testimonials).for('update');
      const known = new Set(existing.map((row) => row.id));
      if (ids.length !== known.size || ids.some((id) => !known.has(id)))
        throw new HttpError(409, 'The testimonials have changed since the page loaded; reload and try again');
      for (const [position, id] of ids.entries())
        await tx.update(testimonials).set({ position }).where(eq(testimonials.id, id));
    });
    await publicCache.changed();
    res.json(
      await db
        .select(adminColumns)
        .from(testimonials)
        .orderBy(...ordered),
    );
  });

  admin.put('/api/admin/testimonials/:id', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    const input = updateTestimonialSchema.parse(req.body ?? {});
    if (Object.keys(input).length === 0) throw new HttpError(400, 'Nothing to update');
    const [row] = await db
      .update(testimonials)
      .set(input)
      .where(eq(testimonials.id, id))
      .returning(adminColumns);
    if (!row) throw notFound('Testimonial not found');
    await publicCache.changed();
    res.json(row);
  });

  admin.delete('/api/admin/testimonials/:id', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    const [row] = await db
      .delete(testimonials)
      .where(eq(testimonials.id, id))
      .returning({ id: testimonials.id });
    if (!row) throw notFound('Testimonial not found');
    await publicCache.changed();
    res.json({ id: row.id, deleted: true });
  });
}
