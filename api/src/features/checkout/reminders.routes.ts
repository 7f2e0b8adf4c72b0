import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { isUnsubscribeToken, reminderCounts, unsubscribeFromReminders } from '@app/shared/sales';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';

const unsubscribeSchema = z.object({
  email: z.string().trim().min(3).max(320),
  token: z.string().trim().min(10).max(200),
});

const page = (text: string) =>
  `<!doctype html><html lang="en-NZ"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Reminders</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.4rem">Stagelight Studio</h1><p>${text}</p><p><a href="/videos">Back to the videos</a></p></body></html>`;

/**
 * The reminder's unsubscribe link (signed per address, so nobody unsubscribes someone else): GET from
 * the e-mail, POST for mail apps' one-click unsubscribe.
 */
export function reminderRoutes(deps: Deps): Router {
  const router = Router();
  const unsubscribe = async (req: Request, res: Response) => {
    const { email, token } = unsubscribeSchema.parse(req.query);
    if (!isUnsubscribeToken(deps.config, email, token))
      throw new HttpError(400, 'This unsubscribe link is not valid');
    await unsubscribeFromReminders(deps.db, email);
    res
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(page('Done: you will get no more reminders about unfinished checkouts. Receipts still come.'));
  };
  router.get('/api/checkout-reminders/unsubscribe', unsubscribe);
  router.post('/api/checkout-reminders/unsubscribe', unsubscribe);
  return router;
}

/** The sales screen's figures: reminders sent, checkouts recovered, revenue recovered. */
export function registerReminderAdminRoutes(admin: Router, deps: Deps): void {
  admin.get('/api/admin/checkout-reminders', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await reminderCounts(deps.db));
  });
}
