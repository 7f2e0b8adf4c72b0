import { Router } from 'express';
import { z } from 'zod';
import { isUnsubscribeToken, reminderCounts, unsubscribeFromReminders } from '@app/shared/sales';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { escapeHtml } from '../../site/seo.ts';

const unsubscribeSchema = z.object({
  email: z.string().trim().min(3).max(320),
  token: z.string().trim().min(10).max(200),
});

const UNSUBSCRIBE_PATH = '/api/checkout-reminders/unsubscribe';

/** A small page of its own (the link works without the web app); `body` is HTML, escaped by the caller. */
const page = (body: string) =>
  `<!doctype html><html lang="en-NZ"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Reminders</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.4rem">Stagelight Studio</h1>${body}<p><a href="/videos">Back to the videos</a></p></body></html>`;

/** The link's address and token, refused (400) unless the token was signed for that address. */
function signedLink(deps: Deps, query: unknown) {
  const link = unsubscribeSchema.parse(query);
  if (!isUnsubscribeToken(deps.config, link.email, link.token))
    throw new HttpError(400, 'This unsubscribe link is not valid');
  return link;
}

const noStore = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

/**
 * The reminder's unsubscribe link, signed per address so nobody unsubscribes someone else. GET only
 * shows a page whose button POSTs: mail systems' link scanners fetch every GET link in a message, and
 * that must not unsubscribe anyone. POST unsubscribes: the button, and mail apps' one-click
 * unsubscribe (RFC 8058: they POST "List-Unsubscribe=One-Click" to the List-Unsubscribe URL, whose
 * query carries the address and token; the body says nothing more and is not read).
 */
export function reminderRoutes(deps: Deps): Router {
  const router = Router();
  router.get(UNSUBSCRIBE_PATH, (req, res) => {
    const { email, token } = signedLink(deps, req.query);
    const action = `${UNSUBSCRIBE_PATH}?${new URLSearchParams({ email, token }).toString()}`;
    res
      .set(noStore)
      .type('html')
      .send(
        page(
          `<p>Stop reminders about unfinished checkouts to <strong>${escapeHtml(email)}</strong>? Receipts still come.</p>` +
            `<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
  });
  router.post(UNSUBSCRIBE_PATH, async (req, res) => {
    const { email } = signedLink(deps, req.query);
    await unsubscribeFromReminders(deps.db, email);
    res
      .set(noStore)
      .type('html')
      .send(
        page(
          `<p>Done: <strong>${escapeHtml(email)}</strong> will get no more reminders about unfinished checkouts. Receipts still come.</p>`,
        ),
      );
  });
  return router;
}

/** The sales screen's figures: reminders sent, checkouts recovered, revenue recovered. */
export function registerReminderAdminRoutes(admin: Router, deps: Deps): void {
  admin.get('/api/admin/checkout-reminders', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await reminderCounts(deps.db));
  });
}
