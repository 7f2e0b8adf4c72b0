import type { Router } from 'express';
import { jobNames } from '@app/shared/queue';
import type { Deps } from '../../deps.ts';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * bull-board, the ops view of every queue (retry, clean, inspect payloads). It sits on the admin
 * router, so it needs the owner's session, and its writes pass the same cross-site check.
 */
export function registerQueueDashboard(admin: Router, { producer }: Deps): void {
  // Built on the owner's first visit: bull-board is a sizeable module few requests ever need.
  let dashboard: Promise<Router> | undefined;
  async function build(): Promise<Router> {
    const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/express'),
    ]);
    const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: jobNames.map((name) => new BullMQAdapter(producer.queue(name))),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Stagelight queues' } },
    });
    return serverAdapter.getRouter() as Router;
  }
  admin.use(QUEUE_DASHBOARD_PATH, async (req, res, next) => {
    // A failed load is tried again on the next visit rather than remembered.
    dashboard ??= build().catch((error: unknown) => {
      dashboard = undefined;
      throw error;
    });
    (await dashboard)(req, res, next);
  });
}
