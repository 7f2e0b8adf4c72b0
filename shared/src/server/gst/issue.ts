import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { documentCounters, purchaseItems, purchases, taxDocuments, type Db } from '../db/index.ts';
import type { GstSettings } from '../../contracts/schemas/gst.ts';
import { creditNoteContent, documentPrefix, invoiceContent, type DocumentContent } from './document.ts';

// Issuing documents inside the transaction that settles the payment or the refund: the number, the
// document and the purchase's new state commit together or not at all, so no number is skipped
// and none is used twice (decision 029).

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** One sequence for invoices and credit notes: Xero and the accountant see unique numbers across both. */
export const DOCUMENT_SEQUENCE = 'tax-documents';

type NewDocument = Omit<typeof taxDocuments.$inferInsert, 'id' | 'number' | 'content'> & {
  issuedAt: Date;
  content: DocumentContent;
};

/**
 * Numbers a document and writes it, in one statement: the counter row's UPDATE ... RETURNING takes
 * the next number and the insert writes the document with it (its reference made from that number).
 * The counter's row lock makes a concurrent issuer wait until this transaction ends, and a rollback
 * gives the number back. Documents are issued last in their transaction, so the lock is held for this
 * statement and the commit. `unlessInvoiced`: nothing is numbered or written if the purchase already
 * has its invoice. Null: nothing written.
 */
async function insertNumbered(
  tx: Tx,
  document: NewDocument,
  unlessInvoiced = false,
): Promise<{ id: string; number: number } | null> {
  const id = randomUUID();
  const numbered = () =>
    tx.execute<{ id: string; number: number }>(sql`
      with counter as (
        update document_counters set last_number = last_number + 1
        where name = ${DOCUMENT_SEQUENCE}
        ${
          unlessInvoiced
            ? sql`and not exists (
                select 1 from tax_documents where purchase_id = ${document.purchaseId} and kind = 'invoice'
              )`
            : sql``
        }
        returning last_number
      )
      insert into tax_documents (
        id, number, kind, purchase_id, credited_document_id, issued_at, total_cents, gst_cents,
        registered, payment_method, refunded_cents_after, content
      )
      select
        ${id}::text, last_number, ${document.kind}::text, ${document.purchaseId}::text,
        ${document.creditedDocumentId ?? null}::text, ${document.issuedAt.toISOString()}::timestamptz,
        ${document.totalCents}::integer, ${document.gstCents}::integer, ${document.registered}::boolean,
        ${document.paymentMethod}::text, ${document.refundedCentsAfter ?? null}::integer,
        jsonb_set(
          ${JSON.stringify(document.content)}::jsonb,
          '{reference}',
          -- documentReference: the prefix and at least six digits
          to_jsonb(${documentPrefix(document.kind)}::text || '-' || lpad(last_number::text, greatest(6, length(last_number::text)), '0'))
        )
      from counter
      returning id, number`);
  const { rows } = await numbered();
  if (rows[0]) return rows[0];
  if (unlessInvoiced) {
    const [invoice] = await tx
      .select({ id: taxDocuments.id })
      .from(taxDocuments)
      .where(and(eq(taxDocuments.purchaseId, document.purchaseId), eq(taxDocuments.kind, 'invoice')));
    if (invoice) return null;
  }
  // A database made without the migration's counter row (never in practice): start the sequence.
  await tx.insert(documentCounters).values({ name: DOCUMENT_SEQUENCE, lastNumber: 0 }).onConflictDoNothing();
  return (await numbered()).rows[0] ?? null;
}

export interface BuyerDetails {
  /** The name Stripe Checkout collected (over NZ$1,000), else the one typed on our form. */
  name?: string | null;
  /** The billing address Stripe collected, one line per part. */
  address?: string | null;
}

type Purchase = typeof purchases.$inferSelect;

const methodOf = (purchase: Purchase) => (purchase.source === 'offline' ? 'offline' : 'card');

/** A purchase's items as they were settled, in the order the receipt lists them. */
export interface SettledItem {
  title: string;
  amountCents: number;
}

/**
 * The invoice of a purchase just paid (its items already settled), or null for a free one or one
 * already invoiced. `items`: the settled items when the caller has them (else they are read).
 * `paidAt`: issued late for a payment made then (see invoiceToCredit).
 */
export async function issueInvoice(
  tx: Tx,
  purchase: Purchase,
  amountCents: number,
  settings: GstSettings,
  buyer: BuyerDetails = {},
  paidAt?: Date,
  items?: SettledItem[],
): Promise<string | null> {
  if (amountCents <= 0) return null;
  const settled =
    items ??
    (await tx
      .select({ title: purchaseItems.title, amountCents: purchaseItems.amountCents })
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, purchase.id))
      .orderBy(asc(purchaseItems.position), asc(purchaseItems.title), asc(purchaseItems.id)));
  const lines = settled.map((item) => ({ description: item.title, amountCents: item.amountCents }));
  // Items share out what was paid (fulfil.ts), so they add up; a purchase without items still gets one line.
  if (lines.reduce((sum, line) => sum + line.amountCents, 0) !== amountCents)
    lines.splice(0, lines.length, { description: 'Videos', amountCents });
  // Late: dated (and reported) on the payment's day, the supply it documents; numbered now.
  const issuedAt = paidAt ?? new Date();
  const { content, gstCents } = invoiceContent({
    // The reference is written with the number the insert takes (insertNumbered).
    number: 0,
    issuedAt,
    ...(paidAt && { issuedLateAt: new Date() }),
    settings,
    buyer: {
      name: buyer.name?.trim() || purchase.buyerName,
      email: purchase.buyerEmail,
      address: buyer.address?.trim() || null,
    },
    paymentMethod: methodOf(purchase),
    lines,
    totalCents: amountCents,
  });
  const row = await insertNumbered(
    tx,
    {
      kind: 'invoice',
      purchaseId: purchase.id,
      issuedAt,
      totalCents: amountCents,
      gstCents,
      registered: settings.registered,
      paymentMethod: content.paymentMethod,
      content,
    },
    true,
  );
  return row?.id ?? null;
}

const invoiceOf = async (tx: Tx, purchaseId: string) =>
  (
    await tx
      .select()
      .from(taxDocuments)
      .where(and(eq(taxDocuments.purchaseId, purchaseId), eq(taxDocuments.kind, 'invoice')))
  )[0];

/**
 * The invoice a refund's credit note corrects. A purchase paid before GST documents existed has none:
 * it is issued now, in the refund's transaction (the next number, so the credit note follows it),
 * dated with the payment's day and saying it was issued late, with the settings in force now. Its
 * issue time is the payment's, so the report counts the sale in the payment's period (where it was
 * declared) and only the credit note in the refund's. Undefined: nothing was recorded as paid
 * (a free purchase, or a refund Stripe told us of before the payment).
 */
export async function invoiceToCredit(tx: Tx, purchase: Purchase, settings: GstSettings) {
  const invoice = await invoiceOf(tx, purchase.id);
  if (invoice || !purchase.paidAt || purchase.amountCents <= 0) return invoice;
  await issueInvoice(tx, purchase, purchase.amountCents, settings, {}, purchase.paidAt);
  return invoiceOf(tx, purchase.id);
}

/** More given back than was paid: nothing is issued (the route answers 400; a webhook is logged). */
export class RefundExceedsPayment extends Error {}

/**
 * A credit note bringing the purchase's credited total up to `refundedTotalCents` (Stripe's
 * amount_refunded, or the offline refunds so far). The caller holds the purchase's row lock, so two
 * refunds at once are issued one after the other and a repeated one issues nothing. Null: nothing to
 * credit (already credited, or nothing recorded as paid: see invoiceToCredit).
 */
export async function issueCreditNote(
  tx: Tx,
  purchase: Purchase,
  refundedTotalCents: number,
  settings: GstSettings,
  reason: string | null = null,
): Promise<string | null> {
  const invoice = await invoiceToCredit(tx, purchase, settings);
  if (!invoice) return null;
  if (refundedTotalCents > invoice.totalCents)
    throw new RefundExceedsPayment(
      `Refunds of ${refundedTotalCents} cents exceed the ${invoice.totalCents} cents paid for purchase ${purchase.id}`,
    );
  const [{ credited }] = (await tx
    .select({ credited: sql<number>`coalesce(sum(${taxDocuments.totalCents}), 0)::int` })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.purchaseId, purchase.id), eq(taxDocuments.kind, 'credit-note')))) as [
    { credited: number },
  ];
  const amountCents = refundedTotalCents - credited;
  if (amountCents <= 0) return null;
  const original = invoice.content as DocumentContent;
  const issuedAt = new Date();
  // GST is reversed at the rate (and registration) of the supply it corrects.
  const { content, gstCents } = creditNoteContent({
    // The reference is written with the number the insert takes (insertNumbered).
    number: 0,
    issuedAt,
    settings: {
      ...settings,
      registered: invoice.registered,
      gstNumber: invoice.registered ? settings.gstNumber : null,
    },
    buyer: original.buyer ?? { name: purchase.buyerName, email: purchase.buyerEmail, address: null },
    paymentMethod: invoice.paymentMethod,
    amountCents,
    original,
    reason,
  });
  const row = await insertNumbered(tx, {
    kind: 'credit-note',
    purchaseId: purchase.id,
    creditedDocumentId: invoice.id,
    issuedAt,
    totalCents: amountCents,
    gstCents,
    registered: invoice.registered,
    paymentMethod: invoice.paymentMethod,
    refundedCentsAfter: refundedTotalCents,
    content,
  });
  return row!.id;
}
