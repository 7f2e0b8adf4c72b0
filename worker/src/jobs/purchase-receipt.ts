import { UnrecoverableError } from 'bullmq';
import { eq } from 'drizzle-orm';
import { purchases, videos } from '@app/shared/db';
import { formatPrice } from '@app/shared/format';
import type { JobHandler } from '../context.ts';
import { isPermanentMailError } from '../clients/mailer.ts';

/** E-mails the buyer a link back to their download (once, unless the owner asks to resend). */
export const purchaseReceipt: JobHandler<'purchase-receipt'> = async (
  { purchaseId, resend },
  { db, config, mailer },
) => {
  const [row] = await db
    .select({ purchase: purchases, title: videos.title })
    .from(purchases)
    .innerJoin(videos, eq(videos.id, purchases.videoId))
    .where(eq(purchases.id, purchaseId));
  if (!row || row.purchase.status !== 'paid') return 'skipped';
  const { purchase } = row;
  if (purchase.receiptSentAt && !resend) return 'skipped';

  const sessionId = purchase.checkoutSessionId ?? `offline_${purchase.id}`;
  const link = `${config.PUBLIC_URL}/video/${purchase.videoId}/download?session_id=${encodeURIComponent(sessionId)}`;
  try {
    await mailer.send({
      to: purchase.buyerEmail,
      subject: `Your video: ${row.title}`,
      text: [
        `Kia ora ${purchase.buyerName},`,
        '',
        `Thank you for buying "${row.title}" (${formatPrice(purchase.amountCents)}).`,
        'Watch or download it here (keep this e-mail: the link works whenever you need it):',
        link,
        '',
        `Questions? Reply to this e-mail or write to ${config.PUBLIC_CONTACT_EMAIL}.`,
      ].join('\n'),
      replyTo: config.PUBLIC_CONTACT_EMAIL,
    });
  } catch (error) {
    if (isPermanentMailError(error))
      throw new UnrecoverableError(`Mail refused: ${(error as Error).message}`);
    throw error;
  }
  await db.update(purchases).set({ receiptSentAt: new Date() }).where(eq(purchases.id, purchase.id));
  return 'done';
};
