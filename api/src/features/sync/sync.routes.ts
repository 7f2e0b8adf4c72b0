import type { Router } from 'express';
import type { Deps } from '../../deps.ts';
import { startSync, syncStatus } from './sync.service.ts';

/** The owner's Sync button and the history under it. */
export function registerSyncRoutes(admin: Router, deps: Deps): void {
  // A second press while a sync waits or runs answers with that sync's job.
  admin.post('/api/sync-order-links', async (_req, res) => {
    res.status(202).json(await startSync(deps));
  });

  // The screen polls this while a sync waits or runs; the finished run's outcome is in `runs`.
  admin.get('/api/admin/sync-runs', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await syncStatus(deps));
  });
}
