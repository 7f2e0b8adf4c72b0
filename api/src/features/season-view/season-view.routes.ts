import type { Router } from 'express';
import { textIdSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { seasonView } from './season-view.service.ts';

/** The owner's season view (decision 034); on the admin router, so it needs the session. */
export function registerSeasonViewRoutes(admin: Router, { db }: Deps): void {
  admin.get('/api/admin/showcases/:id/season', async (req, res) => {
    const showcaseId = textIdSchema.parse(req.params.id);
    // It may name children (searches that found nothing): never kept by a browser or proxy.
    res.set('Cache-Control', 'private, no-store').json(await seasonView(db, showcaseId));
  });
}
