import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { testimonials, type Db } from '@app/shared/db';
import type { insertTestimonialSchema, updateTestimonialSchema } from '@app/shared/schemas';
import { HttpError, notFound } from '../../http/errors.ts';

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

export const adminTestimonials = (db: Db) =>
  db
    .select(adminColumns)
    .from(testimonials)
    .orderBy(...ordered);

/** A new quote goes last. */
export async function createTestimonial(db: Db, input: z.output<typeof insertTestimonialSchema>) {
  const [row] = await db
    .insert(testimonials)
    .values({
      ...input,
      position: sql`(select coalesce(max(${testimonials.position}), -1) + 1 from ${testimonials})`,
    })
    .returning(adminColumns);
  return row!;
}

/** Every testimonial's id, first shown first: refused when the list has changed since the page loaded. */
export async function orderTestimonials(db: Db, ids: number[]) {
  if (new Set(ids).size !== ids.length) throw new HttpError(400, 'Each testimonial may appear only once');
  await db.transaction(async (tx) => {
    const existing = await tx.select({ id: testimonials.id }).from(testimonials).for('update');
    const known = new Set(existing.map((row) => row.id));
    if (ids.length !== known.size || ids.some((id) => !known.has(id)))
      throw new HttpError(409, 'The testimonials have changed since the page loaded; reload and try again');
    for (const [position, id] of ids.entries())
      await tx.update(testimonials).set({ position }).where(eq(testimonials.id, id));
  });
}

export async function updateTestimonial(db: Db, id: number, input: z.output<typeof updateTestimonialSchema>) {
  if (Object.keys(input).length === 0) throw new HttpError(400, 'Nothing to update');
  const [row] = await db
    .update(testimonials)
    .set(input)
    .where(eq(testimonials.id, id))
    .returning(adminColumns);
  if (!row) throw notFound('Testimonial not found');
  return row;
}

export async function deleteTestimonial(db: Db, id: number): Promise<void> {
  const [row] = await db
    .delete(testimonials)
    .where(eq(testimonials.id, id))
    .returning({ id: testimonials.id });
  if (!row) throw notFound('Testimonial not found');
}
