import { UnrecoverableError } from 'bullmq';
import { asc, eq } from 'drizzle-orm';
import { purchaseItems, purchases, showcases } from '@app/shared/db';
import type { JobHandler } from '../context.ts';
import { isPermanentMailError } from '../clients/mailer.ts';
import { receiptHtml, receiptSubject, receiptText, type Receipt } from './receipt-mail.ts';

/** E-mails the buyer a link to every video they bought (once, unless the owner asks to resend). */
export const purchaseReceipt: JobHandler<'purchase-receipt'> = async (
  { purchaseId, resend },
  { db, config, mailer },
) => {
  const [purchase] = await db.select().from(purchases).where(eq(purchases.id, purchaseId));
  if (purchase?.status !== 'paid') return 'skipped';
  if (purchase.receiptSentAt && !resend) return 'skipped';
  const items = await db
    .select({ item: purchaseItems, bundleName: showcases.name })
    .from(purchaseItems)
    .leftJoin(showcases, eq(showcases.id, purchaseItems.bundleShowcaseId))
    .where(eq(purchaseItems.purchaseId, purchase.id))
    .orderBy(asc(purchaseItems.position), asc(purchaseItems.title), asc(purchaseItems.id));

  const sessionId = purchase.checkoutSessionId ?? `offline_${purchase.id}`;
  const receipt: Receipt = {
    buyerName: purchase.buyerName,
    amountCents: purchase.amountCents,
    items: items.map(({ item, bundleName }) => ({
      title: item.title,
      amountCents: item.amountCents,
      bundleName,
      link: item.videoId
        ? `${config.PUBLIC_URL}/video/${item.videoId}/download?session_id=${encodeURIComponent(sessionId)}`
        : null,
    })),
    libraryUrl: `${config.PUBLIC_URL}/my-videos`,
    contactEmail: config.PUBLIC_CONTACT_EMAIL,
  };
  try {
    await mailer.send({
      kind: 'receipt',
      to: purchase.buyerEmail,
      subject: receiptSubject(receipt),
      text: receiptText(receipt),
      html: receiptHtml(receipt),
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
