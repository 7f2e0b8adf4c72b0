import type { Router } from 'express';
import { desc } from 'drizzle-orm';
import { orderLinkSource } from '@app/shared/config';
import { syncRuns } from '@app/shared/db';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

/** The owner's Sync button and the history under it. */
export function registerSyncRoutes(admin: Router, deps: Deps): void {
  admin.post('/api/sync-order-links', async (_req, res) => {
    if (!orderLinkSource(deps.config)) {
      throw new HttpError(
        409,
        'Order-link sync is not set up: configure GOOGLE_SHEET_ID with a service account or API key, or ORDER_LINKS_CSV',
      );
    }
    // The job id is fixed while a sync waits or runs, so a second press joins the run in progress.
    res.status(202).json(await deps.producer.enqueue('sync-order-links', { trigger: 'admin' }));
  });

  // The screen polls this while a sync waits or runs; the finished run's outcome is in `runs`.
  admin.get('/api/admin/sync-runs', async (_req, res) => {
    const [runs, job] = await Promise.all([
      deps.db.select().from(syncRuns).orderBy(desc(syncRuns.startedAt), desc(syncRuns.id)).limit(10),
      deps.producer.queue('sync-order-links').getJob('sync-order-links'),
    ]);
    const state = job ? await job.getState() : undefined;
    const running = state !== undefined && !['completed', 'failed', 'unknown'].includes(state);
    res.set('Cache-Control', 'no-store').json({
      configured: orderLinkSource(deps.config) !== null,
      running,
      progress: running ? job!.progress : null,
      runs,
    });
  });
}
