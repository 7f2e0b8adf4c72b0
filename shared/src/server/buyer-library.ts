import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { purchaseItems, purchases, type Db } from './db/index.ts';

// The buyer's library (decision 024), shared by the api (the library, sign-in) and the worker (whether
// to send a sign-in link). Everything else about a buyer's videos goes through paidVideosForEmail.

/** One video an address has paid for and not had refunded. */
export interface PaidVideo {
  videoId: string;
  purchaseId: string;
  /** When it was paid for (the newest purchase of it, if bought twice). */
  purchasedAt: Date;
  /** The proof its stream and download links take (`sessionId` of POST /api/video-stream/{id}). */
  accessSessionId: string;
}

/**
 * Which videos this address (any case, any surrounding spaces) has paid for and not had refunded,
 * newest first, each once. The one question the library asks of purchases.
 */
export async function paidVideosForEmail(db: Db, email: string): Promise<PaidVideo[]> {
  const normalized = normalizeEmail(email);
  const rows = await db
    .selectDistinctOn([purchaseItems.videoId], {
      videoId: purchaseItems.videoId,
      purchaseId: purchases.id,
      purchasedAt: sql<Date>`coalesce(${purchases.paidAt}, ${purchases.createdAt})`.mapWith(
        purchases.createdAt,
      ),
      checkoutSessionId: purchases.checkoutSessionId,
    })
    .from(purchaseItems)
    .innerJoin(purchases, eq(purchases.id, purchaseItems.purchaseId))
    .where(
      and(
        sql`lower(btrim(${purchases.buyerEmail})) = ${normalized}`,
        eq(purchases.status, 'paid'),
        // A bundle's items name their videos once it is paid; only a pending one has none.
        isNotNull(purchaseItems.videoId),
      ),
    )
    .orderBy(purchaseItems.videoId, desc(sql`coalesce(${purchases.paidAt}, ${purchases.createdAt})`));
  return rows
    .map((row) => ({
      videoId: row.videoId!,
      purchaseId: row.purchaseId,
      purchasedAt: row.purchasedAt,
      // Offline payments have no Checkout Session: their receipts use offline_<purchase> (purchases.routes.ts).
      accessSessionId: row.checkoutSessionId ?? `offline_${row.purchaseId}`,
    }))
    .sort((a, b) => b.purchasedAt.getTime() - a.purchasedAt.getTime() || a.videoId.localeCompare(b.videoId));
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A bearer secret for a link or a cookie: 256 random bits. Only its hash is stored. */
export const newSecret = () => randomBytes(32).toString('base64url');

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
