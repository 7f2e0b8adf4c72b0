import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { hashSecret, newSecret, paidVideosForEmail } from '@app/shared/buyer-library';
import { business } from '@app/shared/site-copy';
import { buyerSignInLinks } from '@app/shared/db';
import { BUYER_LINK_MINUTES, buyerSignInUrl } from '@app/shared/schemas';
import type { JobHandler, WorkerContext } from '../context.ts';
import { escapeHtml, sendMail, type MailMessage } from '../clients/mailer.ts';
import { cardMailHtml } from './card-mail.ts';

/** Requests (sent, used or not) are kept a day, then deleted by the next run. */
const KEEP_REQUESTS_MS = 24 * 3600_000;

/**
 * Decides, off the request path, whether a library sign-in request gets an e-mail: only when its
 * address has paid videos (the api answered the same either way). A request for an address without
 * any is deleted; otherwise a fresh token's hash is stored and the link e-mailed.
 */
export const buyerSignIn: JobHandler<'buyer-sign-in'> = async ({ requestId }, context) => {
  const { db } = context;
  await db
    .delete(buyerSignInLinks)
    .where(lt(buyerSignInLinks.createdAt, new Date(Date.now() - KEEP_REQUESTS_MS)));
  const [request] = await db.select().from(buyerSignInLinks).where(eq(buyerSignInLinks.id, requestId));
  if (!request || request.sentAt) return 'skipped';
  // A link that arrives after the buyer's patience (and its own lifetime) ran out helps nobody.
  if (Date.now() - request.createdAt.getTime() > BUYER_LINK_MINUTES * 60_000) return 'skipped';
  const paid = await paidVideosForEmail(db, request.email);
  if (paid.length === 0) {
    await db.delete(buyerSignInLinks).where(eq(buyerSignInLinks.id, request.id));
    return 'skipped';
  }
  // The row lock is the claim: a second run of this request (a stalled job handed out again) waits,
  // then finds sent_at set, so one e-mail goes out and its link is the one that works.
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '30s'`);
    const [claimed] = await tx
      .select({ id: buyerSignInLinks.id })
      .from(buyerSignInLinks)
      .where(and(eq(buyerSignInLinks.id, request.id), isNull(buyerSignInLinks.sentAt)))
      .for('update');
    if (!claimed) return 'skipped';
    const token = newSecret();
    await sendMail(context.mailer, signInMail(context, request.email, token, paid.length));
    await tx
      .update(buyerSignInLinks)
      .set({
        tokenHash: hashSecret(token),
        expiresAt: new Date(Date.now() + BUYER_LINK_MINUTES * 60_000),
        sentAt: new Date(),
      })
      .where(eq(buyerSignInLinks.id, request.id));
    return 'done';
  });
};

/** A short message that reads well in a phone's mail app: one big button, and the link as text too. */
export function signInMail(
  { config }: Pick<WorkerContext, 'config'>,
  email: string,
  token: string,
  count: number,
): MailMessage {
  const link = buyerSignInUrl(config.PUBLIC_URL, email, token);
  const videos = count === 1 ? 'your video' : `your ${count} videos`;
  const intro = `Tap the button to open ${videos} from ${business.name}. The link works once, for ${BUYER_LINK_MINUTES} minutes; ask for a new one at any time.`;
  const ignore = "If you didn't ask for this, ignore this e-mail: nothing happens without the link.";
  return {
    kind: 'buyer-sign-in',
    to: email,
    subject: `Your sign-in link for ${business.name} videos`,
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    text: [
      'Kia ora,',
      '',
      `Open ${videos} from ${business.name} here (the link works once, for ${BUYER_LINK_MINUTES} minutes):`,
      link,
      '',
      ignore,
      `Questions? Reply to this e-mail or write to ${config.PUBLIC_CONTACT_EMAIL}.`,
    ].join('\n'),
    html: cardMailHtml(`<p style="margin:0 0 16px;">Kia ora,</p>
<p style="margin:0 0 24px;">${escapeHtml(intro)}</p>
<p style="margin:0 0 24px;text-align:center;"><a href="${escapeHtml(link)}" style="display:inline-block;padding:14px 28px;background:#f59e0b;color:#18181b;font-weight:600;text-decoration:none;border-radius:999px;">Open my videos</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#52525b;">Or copy this link into your browser:<br><a href="${escapeHtml(link)}" style="color:#b45309;word-break:break-all;">${escapeHtml(link)}</a></p>
<p style="margin:0;font-size:14px;color:#52525b;">${escapeHtml(ignore)} Questions? Reply to this e-mail.</p>`),
  };
}
