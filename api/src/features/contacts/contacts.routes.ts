import { Router } from 'express';
import { desc, ilike, or, sql } from 'drizzle-orm';
import { contacts, containsPattern } from '@app/shared/db';
import { adminContactListQuerySchema, insertContactSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';

/** The contact form: the enquiry is saved first; the owner's e-mail is a queued job. */
export function contactRoutes(deps: Deps): Router {
  const router = Router();

  router.post('/api/contacts', rateLimiter(deps, limits.contact), async (req, res) => {
    const input = insertContactSchema.parse(req.body ?? {});
    const [contact] = await deps.db.insert(contacts).values(input).returning();
    // Saved is what matters to the visitor; if Redis is down the worker's sweep sends the e-mail later.
    await deps.producer
      .enqueue('contact-notification', { contactId: contact!.id })
      .catch((error: unknown) => {
        deps.logger.warn(
          { err: error, contactId: contact!.id },
          'contact-notification not queued; the sweep will send it',
        );
      });
    const { notifiedAt: _notifiedAt, ...record } = contact!;
    res.status(201).json(record);
  });

  return router;
}

/** The owner's list of enquiries, newest first, paged, searched in names, e-mail and message. */
export function registerAdminContactRoutes(admin: Router, { db }: Deps): void {
  admin.get('/api/admin/contacts', async (req, res) => {
    const { page, pageSize, q } = adminContactListQuerySchema.parse(req.query);
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
    res.set('Cache-Control', 'no-store').json({ contacts: rows, page, pageSize, total });
  });
}
