import { Router } from 'express';
import {
  ONLINE_ALERT_REQUESTED,
  onlineAlertActionSchema,
  onlineAlertRequestSchema,
  textIdSchema,
  waitingRoutineListSchema,
  type OnlineAlertAnswer,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { confirmOnlineAlert, requestOnlineAlert, unsubscribeOnlineAlert } from './online-alerts.service.ts';
import { waitingRoutineList } from './waiting-routines.service.ts';

/** "Tell me when it is online" (decision 035): the request, its confirmation and its cancelling. */
export function onlineAlertRoutes(deps: Deps): Router {
  const router = Router();
  const noStore = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

  router.post(
    '/api/online-alerts',
    rateLimiter(deps, limits.onlineAlert),
    rateLimiter(deps, limits.onlineAlertPerEmail),
    async (req, res) => {
      await requestOnlineAlert(deps, onlineAlertRequestSchema.parse(req.body ?? {}));
      res
        .status(202)
        .set(noStore)
        .json({ message: ONLINE_ALERT_REQUESTED } satisfies OnlineAlertAnswer);
    },
  );

  for (const action of ['confirm', 'unsubscribe'] as const)
    router.post(`/api/online-alerts/:id/${action}`, async (req, res) => {
      const id = textIdSchema.parse(req.params.id);
      const { token } = onlineAlertActionSchema.parse(req.body ?? {});
      const message =
        action === 'confirm'
          ? await confirmOnlineAlert(deps, id, token)
          : await unsubscribeOnlineAlert(deps, id, token);
      res.set(noStore).json({ message } satisfies OnlineAlertAnswer);
    });

  // RFC 8058 one-click: the mail app POSTs "List-Unsubscribe=One-Click" to the List-Unsubscribe URL,
  // the page a GET shows (web: /online-alerts/<id>/unsubscribe?t=). Its body says nothing more.
  router.post('/online-alerts/:id/unsubscribe', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const { token } = onlineAlertActionSchema.parse({ token: req.query.t });
    const message = await unsubscribeOnlineAlert(deps, id, token);
    res.set(noStore).json({ message } satisfies OnlineAlertAnswer);
  });
  return router;
}

/** The owner's list of routines people are waiting for; on the admin router. */
export function registerOnlineAlertAdminRoutes(admin: Router, { db }: Deps): void {
  admin.get('/api/admin/online-alerts/waiting', async (_req, res) => {
    // Routine titles can name children: never kept by a browser or proxy.
    res
      .set('Cache-Control', 'private, no-store')
      .json(waitingRoutineListSchema.parse(await waitingRoutineList(db)));
  });
}
