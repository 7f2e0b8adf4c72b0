import { desc, ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { contacts, containsPattern } from '@app/shared/db';
import type { adminContactListQuerySchema, insertContactSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';

/** Saves an enquiry, then queues the owner's e-mail; the enquiry as stored, without bookkeeping. */
export async function saveContact(
  { db, producer, logger }: Pick<Deps, 'db' | 'producer' | 'logger'>,
  input: z.output<typeof insertContactSchema>,
) {
  const [contact] = await db.insert(contacts).values(input).returning();
  // Saved is what matters to the visitor; if Redis is down the worker's sweep sends the e-mail later.
  await producer.enqueue('contact-notification', { contactId: contact!.id }).catch((error: unknown) => {
    logger.warn(
      { err: error, contactId: contact!.id },
      'contact-notification not queued; the sweep will send it',
    );
  });
  const { notifiedAt: _notifiedAt, ...record } = contact!;
  return record;
}

/** The owner's list of enquiries, newest first, paged, searched in names, e-mail and message. */
export async function adminContacts(
  { db }: Pick<Deps, 'db'>,
  { page, pageSize, q }: z.output<typeof adminContactListQuerySchema>,
) {
  const text = q?.trim();
  // Matched as text: LIKE's own characters in the search are escaped.
  const pattern = text ? containsPattern(text) : undefined;
  const where = pattern
    ? or(
        ilike(sql`${contacts.firstName} || ' ' || ${contacts.lastName}`, pattern),
        ilike(contacts.email, pattern),
        ilike(contacts.message, pattern),
      )
    : undefined;
  const [rows, total] = await Promise.all([
    db
      .select({
        id: contacts.id,
        firstName: contacts.firstName,
        lastName: contacts.lastName,
        email: contacts.email,
        eventType: contacts.eventType,
        message: contacts.message,
        createdAt: contacts.createdAt,
      })
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.$count(contacts, where),
  ]);
  return { contacts: rows, page, pageSize, total };
}
