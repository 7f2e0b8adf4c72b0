import type { Router } from 'express';
import { z } from 'zod';
import { adminEventListQuerySchema, insertEventSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { adminEvents, createEvent, deleteEvent, updateEvent } from './events.service.ts';

const eventIdSchema = z.coerce
  .number({ error: 'Event id must be a number' })
  .int()
  .positive()
  .max(2_147_483_647);

/** The owner's competitions (on the admin router); the public list is in public-lists. */
export function registerAdminEventRoutes(admin: Router, { db, publicCache }: Deps): void {
  admin.get('/api/admin/events', async (req, res) => {
    const query = adminEventListQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await adminEvents(db, query));
  });

  admin.post(
    '/api/admin/events',
    publicCache.writeRoute((req) => createEvent(db, insertEventSchema.parse(req.body ?? {})), 201),
  );

  admin.put(
    '/api/admin/events/:id',
    publicCache.writeRoute((req) =>
      updateEvent(db, eventIdSchema.parse(req.params.id), insertEventSchema.parse(req.body ?? {})),
    ),
  );

  admin.delete(
    '/api/admin/events/:id',
    publicCache.deleteRoute(eventIdSchema, (id) => deleteEvent(db, id)),
  );
}
