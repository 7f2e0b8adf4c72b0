import { and, eq } from 'drizzle-orm';
import { purchaseItems, purchases, type Db } from '../db/index.ts';

/**
 * The purchases repository: the reads and marks of one purchase that the api's routes and the worker's
 * jobs share. Writing a purchase with its items is `writePurchase` (purchase-record.ts); settling it is
 * fulfil.ts; the owner's filtered lists are the api's purchases feature.
 */
export type Purchase = typeof purchases.$inferSelect;

export async function purchaseById(db: Db, id: string): Promise<Purchase | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.id, id));
  return row;
}

export async function purchaseBySession(db: Db, sessionId: string): Promise<Purchase | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId));
  return row;
}

/** The paid purchase of this checkout session that holds this video, if there is one. */
export async function paidPurchaseIdOfVideo(db: Db, videoId: string, sessionId: string) {
  const [row] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .innerJoin(purchaseItems, eq(purchaseItems.purchaseId, purchases.id))
    .where(
      and(
        eq(purchases.checkoutSessionId, sessionId),
        eq(purchaseItems.videoId, videoId),
        eq(purchases.status, 'paid'),
      ),
    )
    .limit(1);
  return row?.id;
}

/** Every paid purchase holding a video (the owner's refund decision after a takedown). */
export async function paidPurchaseIdsOfVideo(db: Db, videoId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: purchases.id })
    .from(purchases)
    .innerJoin(purchaseItems, eq(purchaseItems.purchaseId, purchases.id))
    .where(and(eq(purchaseItems.videoId, videoId), eq(purchases.status, 'paid')));
  return rows.map((row) => row.id);
}

/** Records that a purchase's e-mail of this kind went out (so a retried job does not send it twice). */
export async function markPurchaseMailed(db: Db, id: string, mail: 'receipt' | 'reminder'): Promise<void> {
  const now = new Date();
  await db
    .update(purchases)
    .set(mail === 'receipt' ? { receiptSentAt: now } : { reminderSentAt: now })
    .where(eq(purchases.id, id));
}
