import { asc, eq, inArray, sql } from 'drizzle-orm';
import { purchaseItems, purchases, sales, stripeEvents, type Db, type PurchaseStatus } from '../db/index.ts';
import type { Stripe } from '../stripe.ts';
import type { GstSettings } from '../../contracts/schemas/gst.ts';
import { issueCreditNote, issueInvoice, type BuyerDetails, type SettledItem } from '../gst/issue.ts';
import { gstSettingsOf, savedGstSettings } from '../gst/settings.ts';
import { allocate, bundleVideos } from './bundles.ts';

/**
 * The one fulfilment function, used by the record-sale job and by the success
 * page when the webhook is late. It never trusts an event's copy of a session or charge: it reads
 * Stripe's current state and moves the purchase forward only (a refund is final; paid never goes
 * back), so duplicates and any delivery order end in the state Stripe has.
 */

/** Which states a purchase may move to from each state. */
const allowed: Record<PurchaseStatus, PurchaseStatus[]> = {
  // A refund may be the first we hear of a payment (events arrive in any order); it is final.
  pending: ['paid', 'failed', 'expired', 'refunded'],
  failed: ['paid', 'refunded'],
  expired: ['paid', 'refunded'],
  paid: ['refunded'],
  refunded: [],
};

export interface FulfilmentResult {
  purchaseId: string;
  status: PurchaseStatus;
  /** True when this call changed the purchase's status. */
  changed: boolean;
  /** True when this call wrote the sale. */
  saleRecorded: boolean;
  /** Paid and no receipt sent yet: the caller queues it (its job id makes that once). */
  receiptDue: boolean;
  /** The invoice issued with the payment (the receipt carries it). */
  invoiceId?: string | null;
  /** A credit note issued by this call: the caller e-mails it. */
  creditNoteId?: string | null;
}

export class PurchaseNotFoundError extends Error {}

interface Payment {
  paymentIntentId?: string | null;
  /** Defaults to the payment intent (one sale per payment); offline payments pass `offline_<uuid>`. */
  transactionId?: string;
  /** What the buyer paid (a promotion code may have lowered it); defaults to the purchase's amount. */
  amountCents?: number | null;
  currency?: string | null;
  checkoutSessionId?: string;
  /** What Stripe Checkout collected about the buyer (name and billing address over NZ$1,000). */
  buyer?: BuyerDetails;
  /** The payment's refunded total so far: a credit note brings the credited total up to it. */
  refundedCents?: number;
  refundReason?: string | null;
  /** Paid through the recovery link of this (expired) session of the purchase: the new session takes its place. */
  recoveredFrom?: string;
}

/**
 * How documents are issued: the owner's GST settings when the payment or refund is settled. Either
 * given, or (`gstDefaults`) read with the purchase's row lock, the settling transaction's first
 * statement, with these as what applies until the owner saves the settings screen.
 */
export type Documents = { gst: GstSettings } | { gstDefaults: GstSettings };

/**
 * Moves a purchase to `next` if the state machine allows it (null: only record the payment ids),
 * in one transaction with the sale when it becomes paid.
 */
export async function transitionPurchase(
  db: Db,
  purchaseId: string,
  next: PurchaseStatus | null,
  payment: Payment,
  documents: Documents,
): Promise<FulfilmentResult> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ purchase: purchases, gst: 'gst' in documents ? sql<null>`null` : savedGstSettings })
      .from(purchases)
      .where(eq(purchases.id, purchaseId))
      .for('update');
    if (!locked) throw new PurchaseNotFoundError(`No purchase ${purchaseId}`);
    const { purchase } = locked;
    const gst = 'gst' in documents ? documents.gst : gstSettingsOf(locked.gst, documents.gstDefaults);
    const moves = next !== null && purchase.status !== next && allowed[purchase.status].includes(next);
    const recovered =
      next === 'paid' &&
      payment.recoveredFrom !== undefined &&
      purchase.checkoutSessionId === payment.recoveredFrom &&
      payment.checkoutSessionId !== undefined;
    const ids = {
      ...(recovered && {
        checkoutSessionId: payment.checkoutSessionId,
        recoveredFromSessionId: payment.recoveredFrom,
      }),
      ...(payment.paymentIntentId &&
        !purchase.paymentIntentId && { paymentIntentId: payment.paymentIntentId }),
      ...(payment.checkoutSessionId &&
        !purchase.checkoutSessionId && { checkoutSessionId: payment.checkoutSessionId }),
    };
    const paid = moves && next === 'paid';
    const amountCents = paid ? (payment.amountCents ?? purchase.amountCents) : purchase.amountCents;
    const currency = paid ? (payment.currency ?? purchase.currency) : purchase.currency;
    if (moves || Object.keys(ids).length > 0) {
      await tx
        .update(purchases)
        .set({
          ...ids,
          ...(moves && { status: next, updatedAt: new Date() }),
          ...(paid && { paidAt: new Date(), amountCents, currency }),
        })
        .where(eq(purchases.id, purchaseId));
    }
    const status = moves ? next : purchase.status;
    let saleRecorded = false;
    let settled: Settled | null = null;
    if (paid) {
      settled = await settleItems(tx, purchase.id, amountCents);
      const transactionId =
        payment.transactionId ??
        payment.paymentIntentId ??
        purchase.paymentIntentId ??
        `checkout_${payment.checkoutSessionId ?? purchase.checkoutSessionId}`;
      const inserted = await tx
        .insert(sales)
        .values({
          videoId: settled.soldVideoId,
          purchaseId: purchase.id,
          amountCents,
          currency,
          customerEmail: purchase.buyerEmail,
          transactionId,
        })
        .onConflictDoNothing({ target: sales.transactionId })
        .returning({ id: sales.id });
      saleRecorded = inserted.length > 0;
    }
    // The document is numbered in this transaction, last (the counter's lock is held until the commit):
    // paid and numbered together, or neither.
    const invoiceId = settled
      ? await issueInvoice(
          tx,
          purchase,
          amountCents,
          gst,
          payment.buyer,
          undefined,
          settled.items ?? undefined,
        )
      : null;
    const creditNoteId =
      payment.refundedCents !== undefined && payment.refundedCents > 0
        ? await issueCreditNote(tx, purchase, payment.refundedCents, gst, payment.refundReason ?? null)
        : null;
    return {
      purchaseId,
      status,
      changed: moves,
      saleRecorded,
      receiptDue: status === 'paid' && !purchase.receiptSentAt,
      invoiceId,
      creditNoteId,
    };
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

interface Settled {
  /** The video of a one-video purchase (the sale names it), else null. */
  soldVideoId: string | null;
  /**
   * The items as settled, in the order the receipt and the invoice list them (position, then title):
   * null when a bundle's videos share a position, for the database to order.
   */
  items: SettledItem[] | null;
}

/**
 * At the moment of payment: each bundle becomes a row per video its showcase holds now (a video the
 * cart also bought on its own is granted once), and what was paid is shared out over the rows in
 * proportion to their prices, so a purchase's items add up to its amount.
 */
async function settleItems(tx: Tx, purchaseId: string, paidCents: number): Promise<Settled> {
  const rows = await tx
    .select()
    .from(purchaseItems)
    .where(eq(purchaseItems.purchaseId, purchaseId))
    .orderBy(asc(purchaseItems.position), asc(purchaseItems.id));
  const bundles = rows.filter((row) => row.videoId === null && row.bundleShowcaseId !== null);
  const contents = await bundleVideos(
    tx,
    bundles.map((row) => row.bundleShowcaseId!),
  );
  const granted = new Set(rows.map((row) => row.videoId).filter((id) => id !== null));
  const shares = allocate(
    paidCents,
    rows.map((row) => row.listPriceCents),
  );
  const expanded: string[] = [];
  const items: Array<SettledItem & { position: number }> = [];
  for (const [index, row] of rows.entries()) {
    const share = shares[index]!;
    const inBundle =
      row.videoId === null && row.bundleShowcaseId !== null
        ? contents.filter((video) => video.showcaseId === row.bundleShowcaseId && !granted.has(video.id))
        : [];
    if (inBundle.length === 0) {
      if (row.amountCents !== share)
        await tx.update(purchaseItems).set({ amountCents: share }).where(eq(purchaseItems.id, row.id));
      items.push({ title: row.title, amountCents: share, position: row.position });
      continue;
    }
    const parts = allocate(
      share,
      inBundle.map((video) => video.priceCents),
    );
    await tx.insert(purchaseItems).values(
      inBundle.map((video, at) => {
        granted.add(video.id);
        items.push({ title: video.title, amountCents: parts[at]!, position: row.position });
        return {
          purchaseId,
          videoId: video.id,
          bundleShowcaseId: row.bundleShowcaseId,
          title: video.title,
          listPriceCents: video.priceCents,
          amountCents: parts[at]!,
          position: row.position,
        };
      }),
    );
    expanded.push(row.id);
  }
  if (expanded.length > 0) await tx.delete(purchaseItems).where(inArray(purchaseItems.id, expanded));
  const positions = new Set(items.map((item) => item.position));
  return {
    soldVideoId: rows.length === 1 && granted.size === 1 ? (rows[0]!.videoId ?? null) : null,
    items:
      positions.size === items.length
        ? items
            .sort((a, b) => a.position - b.position)
            .map(({ title, amountCents }) => ({ title, amountCents }))
        : null,
  };
}

const intentId = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Our card purchase for a Stripe object (a Checkout Session or a payment intent): by the purchase id
 * we put in its metadata, else by the object's id stored under `key`. Undefined when it is not ours:
 * a purchase belongs to exactly one session and one intent, so another one naming it is not a
 * payment for it.
 */
async function findPurchase(
  db: Db,
  key: 'checkoutSessionId' | 'paymentIntentId',
  object: { id: string; metadata?: Record<string, string> | null },
) {
  const purchaseId = object.metadata?.purchaseId;
  const [byMetadata] = purchaseId
    ? await db.select().from(purchases).where(eq(purchases.id, purchaseId))
    : [];
  const [purchase] = byMetadata
    ? [byMetadata]
    : await db.select().from(purchases).where(eq(purchases[key], object.id));
  if (!purchase || purchase.source !== 'stripe') return undefined;
  if (purchase[key] && purchase[key] !== object.id) return undefined;
  return purchase;
}

/**
 * Reads the Checkout Session from Stripe and applies what it says to our purchase; null when the
 * session is not one of ours. `hint: 'failed'` comes from async_payment_failed: a complete, unpaid
 * session looks the same before and after a delayed payment fails.
 */
export async function fulfilCheckoutSession(
  db: Db,
  stripe: Stripe,
  documents: Documents,
  checkoutSessionId: string,
  hint?: 'failed',
): Promise<FulfilmentResult | null> {
  const session = await stripe.checkout.sessions.retrieve(checkoutSessionId);
  // A session made from an expired one's recovery link (it copies the metadata): only its payment counts.
  const recoveredFrom = session.recovered_from ?? undefined;
  const purchase = recoveredFrom
    ? await findPurchase(db, 'checkoutSessionId', { ...session, id: recoveredFrom })
    : await findPurchase(db, 'checkoutSessionId', session);
  if (!purchase) return null;
  const paidNow = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  if (recoveredFrom && !paidNow) return null;

  const payment: Payment = {
    paymentIntentId: intentId(session.payment_intent),
    checkoutSessionId: session.id,
  };
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
    return transitionPurchase(
      db,
      purchase.id,
      'paid',
      {
        ...payment,
        amountCents: session.amount_total,
        currency: session.currency,
        buyer: buyerDetails(session),
        ...(recoveredFrom && { recoveredFrom }),
      },
      documents,
    );
  }
  if (session.status === 'expired') return transitionPurchase(db, purchase.id, 'expired', payment, documents);
  if (hint === 'failed' && session.status === 'complete')
    return transitionPurchase(db, purchase.id, 'failed', payment, documents);
  return transitionPurchase(db, purchase.id, null, payment, documents);
}

/**
 * A check the buyer's page asked for while the purchase was pending (a job without an event id, run a
 * couple of seconds later). When a webhook has settled the purchase since, that is the answer, without
 * asking Stripe again; otherwise it settles from Stripe's state like an event would.
 */
export async function checkCheckoutSession(
  db: Db,
  stripe: Stripe,
  documents: Documents,
  checkoutSessionId: string,
): Promise<FulfilmentResult | null> {
  const [purchase] = await db
    .select()
    .from(purchases)
    .where(eq(purchases.checkoutSessionId, checkoutSessionId));
  if (purchase?.source !== 'stripe' || purchase.status === 'pending') {
    return fulfilCheckoutSession(db, stripe, documents, checkoutSessionId);
  }
  return {
    purchaseId: purchase.id,
    status: purchase.status,
    changed: false,
    saleRecorded: false,
    receiptDue: purchase.status === 'paid' && !purchase.receiptSentAt,
  };
}

/**
 * A refund (charge.refunded carries a charge, not the session): reads the payment intent and its
 * charge from Stripe, finds our purchase through the intent's metadata or its stored id, and ends it
 * refunded once the charge is refunded in full. A partial refund leaves the purchase paid. Null when
 * the payment is not one of ours.
 */
export async function refundPayment(
  db: Db,
  stripe: Stripe,
  documents: Documents,
  paymentIntentId: string,
): Promise<FulfilmentResult | null> {
  const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
  const purchase = await findPurchase(db, 'paymentIntentId', intent);
  if (!purchase) return null;
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  return transitionPurchase(
    db,
    purchase.id,
    charge?.refunded ? 'refunded' : null,
    { paymentIntentId: intent.id, refundedCents: charge?.amount_refunded ?? 0 },
    documents,
  );
}

/** An offline payment the owner recorded: paid, with a synthetic transaction id. */
export function fulfilOffline(db: Db, documents: Documents, purchaseId: string): Promise<FulfilmentResult> {
  return transitionPurchase(db, purchaseId, 'paid', { transactionId: `offline_${purchaseId}` }, documents);
}

/** The name and billing address Stripe Checkout collected, as lines. */
function buyerDetails(session: Stripe.Checkout.Session): BuyerDetails {
  const details = session.customer_details;
  const address = details?.address;
  const lines = address
    ? [
        address.line1,
        address.line2,
        [address.city, address.state, address.postal_code].filter(Boolean).join(' '),
        address.country,
      ].filter((line): line is string => Boolean(line && line.trim()))
    : [];
  return { name: details?.name ?? null, address: lines.length ? lines.join('\n') : null };
}

/** Remembers a Stripe event as handled, so a redelivery is acknowledged without queuing work. */
export async function markStripeEventProcessed(db: Db, id: string, type: string): Promise<void> {
  await db.insert(stripeEvents).values({ id, type }).onConflictDoNothing();
}

export async function isStripeEventProcessed(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id));
  return row !== undefined;
}
