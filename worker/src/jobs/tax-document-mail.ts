import { eq } from 'drizzle-orm';
import { purchases, taxDocuments } from '@app/shared/db';
import { documentFileName, documentText, type DocumentContent } from '@app/shared/gst';
import type { JobHandler } from '../context.ts';
import { sendMail } from '../clients/mailer.ts';
import { renderPdf } from '../clients/pdf-renderer.ts';

/**
 * E-mails the buyer a credit note once (the PDF attached, its text in the message). When the invoice it
 * corrects was issued late (a purchase paid before documents existed), the buyer never had that
 * invoice: it is attached too.
 */
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
  const [corrected] = row.document.creditedDocumentId
    ? await db
        .select({ content: taxDocuments.content })
        .from(taxDocuments)
        .where(eq(taxDocuments.id, row.document.creditedDocumentId))
    : [];
  const lateInvoice = (corrected?.content as DocumentContent | undefined)?.issuedLateOn
    ? (corrected!.content as DocumentContent)
    : null;
  const text = [
    `Kia ora ${row.buyerName},`,
    '',
    `We have refunded part or all of your purchase. Here is your ${content.title.toLowerCase()} (also attached as a PDF):`,
    '',
    documentText(content),
    '',
    ...(lateInvoice
      ? [
          `You bought before we issued invoices, so the ${lateInvoice.title.toLowerCase()} it corrects is attached too:`,
          '',
          documentText(lateInvoice),
          '',
        ]
      : []),
    `Questions? Reply to this e-mail or write to ${config.PUBLIC_CONTACT_EMAIL}.`,
  ].join('\n');
  await sendMail(mailer, {
    kind: 'tax-document',
    to: row.buyerEmail,
    subject: `${content.title} ${content.reference} from ${content.seller.name}`,
    text,
    replyTo: config.PUBLIC_CONTACT_EMAIL,
    attachments: await Promise.all(
      [content, ...(lateInvoice ? [lateInvoice] : [])].map(async (document) => ({
        filename: documentFileName(document),
        content: await renderPdf(document),
        contentType: 'application/pdf',
      })),
    ),
  });
  await db.update(taxDocuments).set({ emailedAt: new Date() }).where(eq(taxDocuments.id, documentId));
  return 'done';
};
