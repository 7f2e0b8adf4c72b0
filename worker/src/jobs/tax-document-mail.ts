import { eq } from 'drizzle-orm';
import { purchases, taxDocuments } from '@app/shared/db';
import { documentFileName, documentText, renderDocumentPdf, type DocumentContent } from '@app/shared/gst';
import type { JobHandler } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';

/** E-mails the buyer a credit note once (the PDF attached, its text in the message). */
export const taxDocumentMail: JobHandler<'tax-document-mail'> = async (
  { documentId },
  { db, config, mailer },
) => {
  const [row] = await db
    .select({ document: taxDocuments, buyerEmail: purchases.buyerEmail, buyerName: purchases.buyerName })
    .from(taxDocuments)
    .innerJoin(purchases, eq(purchases.id, taxDocuments.purchaseId))
    .where(eq(taxDocuments.id, documentId));
  if (!row || row.document.emailedAt) return 'skipped';
  const content = row.document.content as DocumentContent;
  const text = [
    `Kia ora ${row.buyerName},`,
    '',
    `We have refunded part or all of your purchase. Here is your ${content.title.toLowerCase()} (also attached as a PDF):`,
    '',
    documentText(content),
    '',
    `Questions? Reply to this e-mail or write to ${config.PUBLIC_CONTACT_EMAIL}.`,
  ].join('\n');
  await sendMail(mailer, {
    kind: 'tax-document',
    to: row.buyerEmail,
    subject: `${content.title} ${content.reference} from ${content.seller.name}`,
    text,
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    attachments: [
      {
        filename: documentFileName(content),
        content: await renderDocumentPdf(content),
        contentType: 'application/pdf',
      },
    ],
  });
  await db.update(taxDocuments).set({ emailedAt: new Date() }).where(eq(taxDocuments.id, documentId));
  return 'done';
};
