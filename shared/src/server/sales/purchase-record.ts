import { purchaseItems, purchases, type Db } from '../db/index.ts';
import { allocate } from './bundles.ts';

/** One thing bought: a video, or a showcase bundle (its videos are granted at payment). */
export interface PurchaseLine {
  videoId: string | null;
  bundleShowcaseId: string | null;
  title: string;
  priceCents: number;
  /**
   * A fixed bundle (a dancer's or a studio's routines): one line to pay, an item per video, each
   * charged its share of the line's price in proportion to the video's own price.
   */
  videos?: Array<{ id: string; title: string; priceCents: number }>;
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
    const items = lines.flatMap((line): Omit<PurchaseLine, 'videos'>[] => {
      if (!line.videos) return [line];
      const shares = allocate(
        line.priceCents,
        line.videos.map((video) => video.priceCents),
      );
      return line.videos.map((video, at) => ({
        videoId: video.id,
        bundleShowcaseId: null,
        title: video.title,
        priceCents: shares[at]!,
      }));
    });
    await tx.insert(purchaseItems).values(
      items.map((line, position) => ({
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
