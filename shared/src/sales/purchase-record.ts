import { purchaseItems, purchases, type Db } from '../db/index.ts';

/** One thing bought: a video, or a showcase bundle (its videos are granted at payment). */
export interface PurchaseLine {
  videoId: string | null;
  bundleShowcaseId: string | null;
  title: string;
  priceCents: number;
}

/**
 * Writes a purchase and its items in one transaction, each item charged at its list price and kept in
 * the order given; the card checkout, the owner's offline payments and the fulfilment bench all write
 * purchases this way.
 */
export async function writePurchase(
  db: Db,
  purchase: typeof purchases.$inferInsert,
  lines: PurchaseLine[],
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(purchases).values(purchase).returning({ id: purchases.id });
    await tx.insert(purchaseItems).values(
      lines.map((line, position) => ({
        purchaseId: row!.id,
        videoId: line.videoId,
        bundleShowcaseId: line.bundleShowcaseId,
        title: line.title,
        listPriceCents: line.priceCents,
        amountCents: line.priceCents,
        position,
      })),
    );
    return row!;
  });
}
