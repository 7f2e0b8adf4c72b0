import type { Router } from 'express';
import { searchMissListSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { searchMissList } from './search-misses.service.ts';

/** The owner's list of searches that found nothing (decision 034); on the admin router. */
export function registerSearchMissRoutes(admin: Router, { db }: Deps): void {
  admin.get('/api/admin/search-misses', async (_req, res) => {
    // The words may name children: never kept by a browser or proxy.
    res.set('Cache-Control', 'private, no-store').json(searchMissListSchema.parse(await searchMissList(db)));
  });
}
