import { asc, eq } from 'drizzle-orm';
import { purchaseItems } from '@app/shared/db';
import { formatMoney } from '@app/shared/format';
import {
  isUnsubscribed,
  markPurchaseMailed,
  paidSince,
  purchaseById,
  unsubscribeUrl,
} from '@app/shared/sales';
import type { JobHandler } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';

/**
 * One reminder for a checkout that expired unpaid, with Stripe's recovery link to the same cart: only
 * with the buyer's consent, once, never to an address that unsubscribed or has since paid for them.
 */
export const checkoutReminder: JobHandler<'checkout-reminder'> = async (
  { purchaseId },
  { db, config, mailer, stripe, logger },
) => {
  const purchase = await purchaseById(db, purchaseId);
  if (!purchase || purchase.status !== 'expired' || !purchase.reminderConsent || purchase.reminderSentAt)
    return 'skipped';
  if (!purchase.checkoutSessionId || !stripe) return 'skipped';
  if (await isUnsubscribed(db, purchase.buyerEmail)) return { status: 'skipped', reason: 'unsubscribed' };
  if (await paidSince(db, purchase)) return { status: 'skipped', reason: 'paid since' };
  const session = await stripe.checkout.sessions.retrieve(purchase.checkoutSessionId);
  const recoveryUrl = session.after_expiration?.recovery?.url;
  if (!recoveryUrl) {
    logger.info({ purchaseId }, 'checkout reminder: Stripe gave no recovery link');
    return { status: 'skipped', reason: 'no recovery link' };
  }
  const items = await db
    .select({ title: purchaseItems.title, amountCents: purchaseItems.amountCents })
    .from(purchaseItems)
    .where(eq(purchaseItems.purchaseId, purchaseId))
    .orderBy(asc(purchaseItems.position));
  const unsubscribe = unsubscribeUrl(config, purchase.buyerEmail);
  const text = [
    `Kia ora ${purchase.buyerName},`,
    '',
    'You started buying these videos but did not finish:',
    '',
    ...items.map((item) => `${item.title}: ${formatMoney(item.amountCents)}`),
    '',
    `Pick up where you left off (the same cart, ${formatMoney(purchase.amountCents)}):`,
    recoveryUrl,
    '',
    'You asked for this one reminder at checkout; we will not send another.',
    `No more reminders: ${unsubscribe}`,
  ].join('\n');
  await sendMail(mailer, {
    kind: 'checkout-reminder',
    to: purchase.buyerEmail,
    subject: 'Your videos are still waiting',
    text,
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
  await markPurchaseMailed(db, purchaseId, 'reminder');
  return 'done';
};
