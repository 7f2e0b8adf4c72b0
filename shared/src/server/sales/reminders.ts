import { and, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { normalizeEmail } from '../buyer-library.ts';
import type { Config } from '../config.ts';
import { purchaseItems, purchases, reminderUnsubscribes, type Db } from '../db/index.ts';
import { purposeKey, sign, verifySignature } from '../signing.ts';

// Unfinished checkouts (decision 029): one reminder per expired session the buyer agreed to, none to
// an address that unsubscribed or has since paid for those videos.

const key = (config: Config) => purposeKey(config.SESSION_SECRET, 'reminder-unsubscribe');

export function unsubscribeUrl(config: Config, email: string): string {
  const address = normalizeEmail(email);
  const query = new URLSearchParams({ email: address, token: sign(key(config), address) });
  return `${config.PUBLIC_URL}/api/checkout-reminders/unsubscribe?${query.toString()}`;
}

export const isUnsubscribeToken = (config: Config, email: string, token: string) =>
  verifySignature(key(config), normalizeEmail(email), token);

export async function unsubscribeFromReminders(db: Db, email: string): Promise<void> {
  await db
    .insert(reminderUnsubscribes)
    .values({ email: normalizeEmail(email) })
    .onConflictDoNothing();
}

export async function isUnsubscribed(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: reminderUnsubscribes.email })
    .from(reminderUnsubscribes)
    .where(eq(reminderUnsubscribes.email, normalizeEmail(email)));
  return row !== undefined;
}

/** The address has paid, since this checkout began, for any video or bundle it held. */
export async function paidSince(db: Db, purchase: typeof purchases.$inferSelect): Promise<boolean> {
  const items = await db
    .select({ videoId: purchaseItems.videoId, showcaseId: purchaseItems.bundleShowcaseId })
    .from(purchaseItems)
    .where(eq(purchaseItems.purchaseId, purchase.id));
  const videoIds = items.flatMap((item) => (item.videoId ? [item.videoId] : []));
  const showcaseIds = items.flatMap((item) => (item.showcaseId ? [item.showcaseId] : []));
  if (videoIds.length + showcaseIds.length === 0) return false;
  const [row] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .innerJoin(purchaseItems, eq(purchaseItems.purchaseId, purchases.id))
    .where(
      and(
        eq(purchases.status, 'paid'),
        sql`lower(btrim(${purchases.buyerEmail})) = ${normalizeEmail(purchase.buyerEmail)}`,
        gt(purchases.createdAt, purchase.createdAt),
        or(
          videoIds.length ? inArray(purchaseItems.videoId, videoIds) : sql`false`,
          showcaseIds.length ? inArray(purchaseItems.bundleShowcaseId, showcaseIds) : sql`false`,
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** For the sales screen: reminders sent, checkouts paid through their recovery link, and their revenue. */
export async function reminderCounts(db: Db) {
  const [row] = await db
    .select({
      remindersSent: sql<number>`(count(*) filter (where ${purchases.reminderSentAt} is not null))::int`,
      recovered: sql<number>`(count(*) filter (where ${purchases.recoveredFromSessionId} is not null and ${purchases.status} = 'paid'))::int`,
      recoveredCents: sql<number>`coalesce(sum(${purchases.amountCents}) filter (where ${purchases.recoveredFromSessionId} is not null and ${purchases.status} = 'paid'), 0)::int`,
    })
    .from(purchases)
    .where(or(isNotNull(purchases.reminderSentAt), isNotNull(purchases.recoveredFromSessionId)));
  return row!;
}
