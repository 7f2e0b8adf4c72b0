import type { Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { jobNames } from '@app/shared/queue';
import type { Deps } from '../../deps.ts';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * bull-board, the ops view of every queue (retry, clean, inspect payloads). It sits on the admin
 * router, so it needs the owner's session, and its writes pass the same cross-site check.
 */
export function registerQueueDashboard(admin: Router, { producer }: Deps): void {
  const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: jobNames.map((name) => new BullMQAdapter(producer.queue(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Stagelight queues' } },
  });
  admin.use(QUEUE_DASHBOARD_PATH, serverAdapter.getRouter());
}
