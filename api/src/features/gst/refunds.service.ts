import { and, eq, sql } from 'drizzle-orm';
import { purchases, taxDocuments } from '@app/shared/db';
import { invoiceToCredit, issueCreditNote, loadGstSettings } from '@app/shared/gst';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

/**
 * The owner gives back (part of) an offline payment: a credit note for the amount, in one transaction
 * holding the purchase's row lock, so two refunds at once are checked against each other and never
 * exceed what was paid. Refunded in full, the purchase ends refunded (access revoked, as with Stripe).
 */
export async function refundOfflinePayment(
  deps: Pick<Deps, 'db' | 'config' | 'producer' | 'logger'>,
  purchaseId: string,
  amountCents: number,
  reason: string | null,
): Promise<{ creditNoteId: string; refundedCents: number; status: string }> {
  const { db } = deps;
  const gst = await loadGstSettings(db, deps.config);
  const result = await db.transaction(async (tx) => {
    const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, purchaseId)).for('update');
    if (!purchase) throw notFound('Purchase not found');
    if (purchase.source !== 'offline')
      throw new HttpError(409, 'Card payments are refunded in Stripe’s dashboard; the credit note follows');
    if (purchase.status !== 'paid') throw new HttpError(409, 'Only a paid purchase can be refunded');
    // A payment recorded before documents existed gets its invoice now (issued late), then the note.
    const invoice = await invoiceToCredit(tx, purchase, gst);
    if (!invoice) throw new HttpError(409, 'This purchase has no invoice to credit');
    const [{ credited }] = (await tx
      .select({ credited: sql<number>`coalesce(sum(${taxDocuments.totalCents}), 0)::int` })
      .from(taxDocuments)
      .where(and(eq(taxDocuments.purchaseId, purchaseId), eq(taxDocuments.kind, 'credit-note')))) as [
      { credited: number },
    ];
    const refundedCents = credited + amountCents;
    if (refundedCents > invoice.totalCents) {
      deps.logger.warn(
        { purchaseId, amountCents, credited },
        'offline refund larger than the payment refused',
      );
      throw new HttpError(
        400,
        `That is more than was paid: NZ$${((invoice.totalCents - credited) / 100).toFixed(2)} is left to refund`,
      );
    }
    const full = refundedCents === invoice.totalCents;
    if (full)
      await tx
        .update(purchases)
        .set({ status: 'refunded', updatedAt: new Date() })
        .where(eq(purchases.id, purchaseId));
    // Numbered last: the counter's lock is held from here to the commit (decision 029).
    const creditNoteId = await issueCreditNote(tx, purchase, refundedCents, gst, reason);
    if (!creditNoteId) throw new HttpError(409, 'Nothing to refund');
    return { creditNoteId, refundedCents, status: full ? 'refunded' : 'paid' };
  });
  // After the commit: the e-mail job reloads the note (a lost enqueue is the owner's Resend away).
  await deps.producer
    .enqueue('tax-document-mail', { documentId: result.creditNoteId })
    .catch((error: unknown) => deps.logger.error({ err: error, ...result }, 'credit note e-mail not queued'));
  return result;
}
