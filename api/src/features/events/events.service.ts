import { and, asc, desc, eq, gte, ilike, lt, sql } from 'drizzle-orm';
import { containsPattern, events, type Db } from '@app/shared/db';
import type { z } from 'zod';
import type { adminEventListQuerySchema, insertEventSchema, PublicEvent } from '@app/shared/schemas';
import { notFound } from '../../http/errors.ts';

type EventInput = z.output<typeof insertEventSchema>;

/** "Today" is New Zealand's calendar day, as event dates are. */
const today = sql`(now() at time zone 'Pacific/Auckland')::date`;

/** The competitions the home page lists: upcoming ones first, soonest first; then past ones, latest first. */
export function publicEvents(db: Db): Promise<PublicEvent[]> {
  return db
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
    .orderBy(
      sql`${events.date} < ${today}`,
      sql`case when ${events.date} >= ${today} then ${events.date} end asc`,
      desc(events.date),
      asc(events.id),
    );
}

/** The owner's paged list: upcoming (soonest first) or past (latest first), searched by title. */
export async function adminEvents(
  db: Db,
  { page, pageSize, q, when }: z.output<typeof adminEventListQuerySchema>,
) {
  const text = q?.trim();
  const where = and(
    when === 'upcoming' ? gte(events.date, today) : lt(events.date, today),
    text ? ilike(events.title, containsPattern(text)) : undefined,
  );
  const order =
    when === 'upcoming' ? [asc(events.date), asc(events.id)] : [desc(events.date), desc(events.id)];
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(events)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.$count(events, where),
  ]);
  return { events: rows, page, pageSize, total };
}

export async function createEvent(db: Db, input: EventInput) {
  const [event] = await db.insert(events).values(input).returning();
  return event!;
}

export async function updateEvent(db: Db, id: number, input: EventInput) {
  const [event] = await db
    .update(events)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(events.id, id))
    .returning();
  if (!event) throw notFound('Event not found');
  return event;
}

export async function deleteEvent(db: Db, id: number): Promise<void> {
  const [event] = await db.delete(events).where(eq(events.id, id)).returning({ id: events.id });
  if (!event) throw notFound('Event not found');
}
