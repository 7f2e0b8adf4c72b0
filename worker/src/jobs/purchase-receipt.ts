import { and, asc, eq } from 'drizzle-orm';
import { purchaseItems, showcases, taxDocuments } from '@app/shared/db';
import { documentFileName, documentText, type DocumentContent } from '@app/shared/gst';
import type { JobHandler } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';
import { renderPdf } from '../clients/pdf-renderer.ts';
import { receiptHtml, receiptSubject, receiptText, type Receipt } from './receipt-mail.ts';
import { markPurchaseMailed, purchaseById } from '@app/shared/sales';

/** E-mails the buyer a link to every video they bought (once, unless the owner asks to resend). */
export const purchaseReceipt: JobHandler<'purchase-receipt'> = async (
  { purchaseId, resend },
  { db, config, mailer },
) => {
  const purchase = await purchaseById(db, purchaseId);
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
  // The purchase's invoice (or receipt, when not GST-registered): its text in the message, its PDF attached.
  const [invoice] = await db
    .select({ content: taxDocuments.content })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.purchaseId, purchase.id), eq(taxDocuments.kind, 'invoice')));
  const document = invoice?.content as DocumentContent | undefined;
  if (document)
    receipt.document = { title: `${document.title} ${document.reference}`, text: documentText(document) };
  await sendMail(mailer, {
    kind: 'receipt',
    to: purchase.buyerEmail,
    subject: receiptSubject(receipt),
    text: receiptText(receipt),
    html: receiptHtml(receipt),
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    ...(document && {
      attachments: [
        {
          filename: documentFileName(document),
          content: await renderPdf(document),
          contentType: 'application/pdf',
        },
      ],
    }),
  });
  await markPurchaseMailed(db, purchase.id, 'receipt');
  return 'done';
};
