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

  // Each write then tells the public cache, before answering, so no list shows the old events after it.
  admin.post('/api/admin/events', async (req, res) => {
    const event = await createEvent(db, insertEventSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.status(201).json(event);
  });

  admin.put('/api/admin/events/:id', async (req, res) => {
    const id = eventIdSchema.parse(req.params.id);
    const event = await updateEvent(db, id, insertEventSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(event);
  });

  admin.delete('/api/admin/events/:id', async (req, res) => {
    const id = eventIdSchema.parse(req.params.id);
    await deleteEvent(db, id);
    await publicCache.changed();
    res.json({ id, deleted: true });
  });
}
