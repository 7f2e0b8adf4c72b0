import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, exists, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { containsPattern, purchaseItems, purchases, showcases, videos, type Db } from '@app/shared/db';
import { writePurchase, type PurchaseLine } from '@app/shared/sales';
import type {
  AdminPurchase,
  AdminPurchaseList,
  OfflinePurchaseRequest,
  PurchaseFilter,
  SalesSummary,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { documentsForPurchases } from '../gst/documents.service.ts';
import { csvCell } from '../../http/csv.ts';

// The owner's side of the shop (docs/decisions/023): purchases with their items, the CSV with a row
// per item, the dashboard's figures, offline payments and resent receipts.

/** Purchases holding an item that matches `condition`. */
const holdsItem = (db: Db, condition: SQL) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(purchaseItems)
      .where(and(eq(purchaseItems.purchaseId, purchases.id), condition)),
  );

function conditions(db: Db, filter: PurchaseFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(purchases.status, filter.status));
  if (filter.videoId) where.push(holdsItem(db, eq(purchaseItems.videoId, filter.videoId)));
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    where.push(
      or(
        ilike(purchases.buyerName, pattern),
        ilike(purchases.buyerEmail, pattern),
        holdsItem(db, ilike(purchaseItems.title, pattern)),
      )!,
    );
  }
  // Days are New Zealand days.
  if (filter.from)
    where.push(
      gte(purchases.createdAt, sql`(${filter.from}::date)::timestamp at time zone 'Pacific/Auckland'`),
    );
  if (filter.to)
    where.push(
      lt(purchases.createdAt, sql`(${filter.to}::date + 1)::timestamp at time zone 'Pacific/Auckland'`),
    );
  return where.length ? and(...where) : undefined;
}

/** The items of these purchases, in their order, with the bundle's showcase name. */
async function itemsOf(db: Db, purchaseIds: string[]) {
  if (purchaseIds.length === 0) return new Map<string, AdminPurchase['items']>();
  const rows = await db
    .select({
      purchaseId: purchaseItems.purchaseId,
      videoId: purchaseItems.videoId,
      title: purchaseItems.title,
      bundleShowcaseId: purchaseItems.bundleShowcaseId,
      bundleName: showcases.name,
      amountCents: purchaseItems.amountCents,
    })
    .from(purchaseItems)
    .leftJoin(showcases, eq(showcases.id, purchaseItems.bundleShowcaseId))
    .where(inArray(purchaseItems.purchaseId, purchaseIds))
    .orderBy(asc(purchaseItems.position), asc(purchaseItems.title), asc(purchaseItems.id));
  const byPurchase = new Map<string, AdminPurchase['items']>();
  for (const { purchaseId, ...item } of rows) {
    const list = byPurchase.get(purchaseId) ?? [];
    list.push(item);
    byPurchase.set(purchaseId, list);
  }
  return byPurchase;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

const paidItemCount = sql<number>`(select count(*) from purchase_items i where i.purchase_id = ${purchases.id})`;

export async function listPurchases(
  db: Db,
  filter: PurchaseFilter,
  page: number,
  pageSize: number,
): Promise<AdminPurchaseList> {
  const where = conditions(db, filter);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(purchases)
      .where(where)
      .orderBy(desc(purchases.createdAt), desc(purchases.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({
        count: sql<number>`count(*)::int`,
        paidCount: sql<number>`count(*) filter (where ${purchases.status} = 'paid')::int`,
        paidItems: sql<number>`coalesce(sum(${paidItemCount}) filter (where ${purchases.status} = 'paid'), 0)::int`,
        paidCents: sql<number>`coalesce(sum(${purchases.amountCents}) filter (where ${purchases.status} = 'paid'), 0)::int`,
        refundedCents: sql<number>`coalesce(sum(${purchases.amountCents}) filter (where ${purchases.status} = 'refunded'), 0)::int`,
      })
      .from(purchases)
      .where(where),
  ]);
  const [items, documents] = await Promise.all([
    itemsOf(
      db,
      rows.map((row) => row.id),
    ),
    documentsForPurchases(
      db,
      rows.map((row) => row.id),
    ),
  ]);
  return {
    purchases: rows.map((row) => {
      const list = items.get(row.id) ?? [];
      return {
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        paidAt: iso(row.paidAt),
        status: row.status,
        source: row.source,
        buyerName: row.buyerName,
        buyerEmail: row.buyerEmail,
        amountCents: row.amountCents,
        currency: row.currency,
        checkoutSessionId: row.checkoutSessionId,
        paymentIntentId: row.paymentIntentId,
        receiptSentAt: iso(row.receiptSentAt),
        itemCount: list.length,
        items: list,
        documents: documents.get(row.id) ?? [],
      };
    }),
    page,
    pageSize,
    total: totals!.count,
    totals: totals!,
  };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * One row per item with its purchase's id, so the item amounts add up per video and per purchase
 * (once paid, a purchase's items share out what was paid).
 */
export async function purchasesCsv(db: Db, filter: PurchaseFilter): Promise<string> {
  const rows = await db
    .select({
      purchase: purchases,
      videoId: purchaseItems.videoId,
      title: purchaseItems.title,
      bundleName: showcases.name,
      itemCents: purchaseItems.amountCents,
      itemCount: sql<number>`count(*) over (partition by ${purchases.id})::int`,
    })
    .from(purchases)
    .innerJoin(purchaseItems, eq(purchaseItems.purchaseId, purchases.id))
    .leftJoin(showcases, eq(showcases.id, purchaseItems.bundleShowcaseId))
    .where(conditions(db, filter))
    .orderBy(
      desc(purchases.createdAt),
      desc(purchases.id),
      asc(purchaseItems.position),
      asc(purchaseItems.title),
    )
    .limit(100_000);
  const header = [
    'Date',
    'Purchase',
    'Status',
    'Source',
    'Buyer',
    'Email',
    'Video',
    'Video id',
    'Bundle',
    'Amount (NZD)',
    'Purchase amount (NZD)',
    'Items in purchase',
    'Checkout session',
    'Payment',
  ];
  const lines = rows.map(({ purchase, ...item }) =>
    [
      purchase.createdAt,
      purchase.id,
      purchase.status,
      purchase.source,
      purchase.buyerName,
      purchase.buyerEmail,
      item.title,
      item.videoId,
      item.bundleName,
      dollars(item.itemCents),
      dollars(purchase.amountCents),
      item.itemCount,
      purchase.checkoutSessionId,
      purchase.paymentIntentId,
    ]
      .map(csvCell)
      .join(','),
  );
  return [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n';
}

/** The dashboard's sales card: paid purchases, the videos in them and revenue, overall and for 30 days. */
export async function salesSummary(db: Db): Promise<SalesSummary> {
  const recent = sql`${purchases.paidAt} >= now() - interval '30 days'`;
  const [row] = await db
    .select({
      paidPurchases: sql<number>`count(distinct ${purchases.id})::int`,
      paidItems: sql<number>`count(${purchaseItems.id})::int`,
      revenueCents: sql<number>`coalesce(sum(${purchaseItems.amountCents}), 0)::int`,
      last30DaysItems: sql<number>`(count(${purchaseItems.id}) filter (where ${recent}))::int`,
      last30DaysCents: sql<number>`coalesce(sum(${purchaseItems.amountCents}) filter (where ${recent}), 0)::int`,
    })
    .from(purchases)
    .innerJoin(purchaseItems, eq(purchaseItems.purchaseId, purchases.id))
    .where(eq(purchases.status, 'paid'));
  return row!;
}

export async function resendReceipt(deps: Pick<Deps, 'db' | 'producer'>, id: string) {
  const [purchase] = await deps.db
    .select({ status: purchases.status })
    .from(purchases)
    .where(eq(purchases.id, id));
  if (!purchase) throw notFound('Purchase not found');
  if (purchase.status !== 'paid') throw new HttpError(409, 'Only paid purchases have a receipt to resend');
  return deps.producer.enqueue('purchase-receipt', { purchaseId: id, resend: true });
}

/**
 * An offline payment for videos and/or showcase bundles, settled by the record-sale job like a card
 * payment (bundles become their videos then, and the amount is shared out over the items).
 */
export async function recordOfflinePayment(
  deps: Pick<Deps, 'db' | 'producer' | 'config'>,
  input: OfflinePurchaseRequest,
) {
  const { db, producer, config } = deps;
  const videoIds = [...new Set([...(input.videoId ? [input.videoId] : []), ...(input.videoIds ?? [])])];
  const showcaseIds = [...new Set(input.showcaseIds ?? [])];
  const [found, bundles] = await Promise.all([
    videoIds.length
      ? db
          .select({ id: videos.id, title: videos.title, priceCents: videos.priceCents })
          .from(videos)
          .where(inArray(videos.id, videoIds))
      : [],
    showcaseIds.length
      ? db
          .select({ id: showcases.id, name: showcases.name, bundlePriceCents: showcases.bundlePriceCents })
          .from(showcases)
          .where(inArray(showcases.id, showcaseIds))
      : [],
  ]);
  const missing = videoIds.find((id) => !found.some((video) => video.id === id));
  if (missing) throw notFound(`Video ${missing} not found`);
  for (const id of showcaseIds) {
    const showcase = bundles.find((row) => row.id === id);
    if (!showcase) throw notFound(`Showcase ${id} not found`);
    if (showcase.bundlePriceCents === null)
      throw new HttpError(400, `“${showcase.name}” has no bundle price: set one on the showcase first`);
  }
  const lines: PurchaseLine[] = [
    ...videoIds.map((id) => {
      const video = found.find((row) => row.id === id)!;
      return { videoId: id, bundleShowcaseId: null, title: video.title, priceCents: video.priceCents };
    }),
    ...showcaseIds.map((id) => {
      const showcase = bundles.find((row) => row.id === id)!;
      return {
        videoId: null,
        bundleShowcaseId: id,
        title: showcase.name,
        priceCents: showcase.bundlePriceCents!,
      };
    }),
  ];
  // Offline orders get a synthetic session id, so the receipt's download links work like a card purchase's.
  const id = randomUUID();
  await writePurchase(
    db,
    {
      id,
      checkoutSessionId: `offline_${id}`,
      buyerName: input.buyerName,
      buyerEmail: input.buyerEmail,
      amountCents: input.amountCents,
      currency: config.CURRENCY,
      source: 'offline',
    },
    lines,
  );
  const job = await producer
    .enqueue('record-sale', { kind: 'offline', purchaseId: id })
    .catch(async (error) => {
      // Not queued, so nothing is recorded: the owner can simply try again.
      await db.delete(purchases).where(eq(purchases.id, id));
      throw error;
    });
  return { id, ...job };
}
