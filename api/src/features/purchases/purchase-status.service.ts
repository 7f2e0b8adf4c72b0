import { asc, eq } from 'drizzle-orm';
import { purchaseItems, purchases } from '@app/shared/db';
import type { PurchaseStatusResponse } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { documentsOfPurchase } from '../gst/documents.service.ts';
import { purchaseBySession as purchaseBySessionId } from '@app/shared/sales';

// The buyer's side of a purchase after checkout: its status and, once paid, where each video is.

/** The download page of one video of a paid purchase (it issues the short-lived signed link itself). */
export const downloadPagePath = (videoId: string, sessionId: string) =>
  `/video/${encodeURIComponent(videoId)}/download?session_id=${encodeURIComponent(sessionId)}`;

export const purchaseBySession = (deps: Pick<Deps, 'db'>, sessionId: string) =>
  purchaseBySessionId(deps.db, sessionId);

/** GET /api/purchases/{session}'s answer: the purchase's status and every item, each with its download once paid. */
export async function purchaseStatusOf(
  deps: Pick<Deps, 'db'>,
  purchase: typeof purchases.$inferSelect,
  sessionId: string,
): Promise<PurchaseStatusResponse> {
  // Both at once: the buyer's page waits on this answer the moment the sale is recorded.
  const [items, documents] = await Promise.all([
    deps.db
      .select({
        videoId: purchaseItems.videoId,
        title: purchaseItems.title,
        bundleShowcaseId: purchaseItems.bundleShowcaseId,
        amountCents: purchaseItems.amountCents,
      })
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, purchase.id))
      .orderBy(asc(purchaseItems.position), asc(purchaseItems.title), asc(purchaseItems.id)),
    purchase.status === 'paid' || purchase.status === 'refunded'
      ? documentsOfPurchase(deps.db, purchase.id, sessionId)
      : [],
  ]);
  const paid = purchase.status === 'paid';
  const listed = items.map((item) => ({
    ...item,
    ...(paid && item.videoId && { downloadUrl: downloadPagePath(item.videoId, sessionId) }),
  }));
  const first = listed.find((item) => item.videoId);
  return {
    status: purchase.status,
    videoId: first?.videoId ?? '',
    ...(first?.downloadUrl && { downloadUrl: first.downloadUrl }),
    amountCents: purchase.amountCents,
    items: listed,
    ...(documents.length > 0 && { documents }),
  };
}
