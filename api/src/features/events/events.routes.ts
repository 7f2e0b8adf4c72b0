import type { Router } from 'express';
import { adminEventListQuerySchema, insertEventSchema, serialIdSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { adminEvents, createEvent, deleteEvent, updateEvent } from './events.service.ts';

const eventIdSchema = serialIdSchema('Event');

/** The owner's competitions (on the admin router); the public list is in public-lists. */
export function registerAdminEventRoutes(admin: Router, { db, publicCache }: Deps): void {
  admin.get('/api/admin/events', async (req, res) => {
    const query = adminEventListQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await adminEvents(db, query));
  });

  publicCache.writeRoutes(admin, '/api/admin/events', eventIdSchema, {
    post: (body) => createEvent(db, insertEventSchema.parse(body)),
    put: (id, body) => updateEvent(db, id, insertEventSchema.parse(body)),
    delete: (id) => deleteEvent(db, id),
  });
}
