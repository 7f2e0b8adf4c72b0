import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { containsPattern, purchases, purchaseStatuses, videos } from '@app/shared/db';
import { calendarDateSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

const filterSchema = z.object({
  status: z.enum(purchaseStatuses).optional(),
  videoId: z.string().trim().min(1).max(100).optional(),
  q: z.string().trim().max(200).optional(),
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
});
const pageSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
const offlineSchema = z.object({
  videoId: z.string().trim().min(1).max(100),
  buyerName: z.string().trim().min(1, 'Name is required').max(200),
  buyerEmail: z.email({ error: 'Enter a valid email address' }).max(320),
  amountCents: z.number().int().min(0).max(10_000_000),
});

function conditions(filter: z.infer<typeof filterSchema>): SQL | undefined {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(purchases.status, filter.status));
  if (filter.videoId) where.push(eq(purchases.videoId, filter.videoId));
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    where.push(
      or(
        ilike(purchases.buyerName, pattern),
        ilike(purchases.buyerEmail, pattern),
        ilike(videos.title, pattern),
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

const columns = {
  id: purchases.id,
  createdAt: purchases.createdAt,
  paidAt: purchases.paidAt,
  status: purchases.status,
  source: purchases.source,
  buyerName: purchases.buyerName,
  buyerEmail: purchases.buyerEmail,
  amountCents: purchases.amountCents,
  currency: purchases.currency,
  videoId: purchases.videoId,
  videoTitle: videos.title,
  checkoutSessionId: purchases.checkoutSessionId,
  paymentIntentId: purchases.paymentIntentId,
  receiptSentAt: purchases.receiptSentAt,
};

/** A CSV cell: quoted, and never read as a formula by a spreadsheet. */
function csvCell(value: unknown): string {
  let text =
    value instanceof Date ? value.toISOString() : value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function registerPurchaseRoutes(admin: Router, { db, producer, config }: Deps): void {
  admin.get('/api/admin/purchases', async (req, res) => {
    const filter = filterSchema.parse(req.query);
    const { page, pageSize } = pageSchema.parse(req.query);
    const where = conditions(filter);
    const [rows, [summary]] = await Promise.all([
      db
        .select(columns)
        .from(purchases)
        .innerJoin(videos, eq(videos.id, purchases.videoId))
        .where(where)
        .orderBy(desc(purchases.createdAt), desc(purchases.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db
        .select({
          count: sql<number>`count(*)::int`,
          paidCount: sql<number>`count(*) filter (where ${purchases.status} = 'paid')::int`,
          paidCents: sql<number>`coalesce(sum(${purchases.amountCents}) filter (where ${purchases.status} = 'paid'), 0)::int`,
          refundedCents: sql<number>`coalesce(sum(${purchases.amountCents}) filter (where ${purchases.status} = 'refunded'), 0)::int`,
        })
        .from(purchases)
        .innerJoin(videos, eq(videos.id, purchases.videoId))
        .where(where),
    ]);
    res
      .set('Cache-Control', 'no-store')
      .json({ purchases: rows, page, pageSize, total: summary!.count, totals: summary });
  });

  admin.get('/api/admin/purchases.csv', async (req, res) => {
    const where = conditions(filterSchema.parse(req.query));
    const rows = await db
      .select(columns)
      .from(purchases)
      .innerJoin(videos, eq(videos.id, purchases.videoId))
      .where(where)
      .orderBy(desc(purchases.createdAt))
      .limit(50_000);
    const header = [
      'Date',
      'Status',
      'Source',
      'Buyer',
      'Email',
      'Video',
      'Amount (NZD)',
      'Checkout session',
      'Payment',
    ];
    const lines = rows.map((row) =>
      [
        row.createdAt,
        row.status,
        row.source,
        row.buyerName,
        row.buyerEmail,
        row.videoTitle,
        (row.amountCents / 100).toFixed(2),
        row.checkoutSessionId,
        row.paymentIntentId,
      ]
        .map(csvCell)
        .join(','),
    );
    res
      .type('text/csv')
      .set('Content-Disposition', 'attachment; filename="purchases.csv"')
      .set('Cache-Control', 'no-store')
      .send([header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n');
  });

  admin.post('/api/admin/purchases/:id/resend', async (req, res) => {
    const id = z.string().trim().min(1).max(100).parse(req.params.id);
    const [purchase] = await db
      .select({ status: purchases.status })
      .from(purchases)
      .where(eq(purchases.id, id));
    if (!purchase) throw notFound('Purchase not found');
    if (purchase.status !== 'paid') throw new HttpError(409, 'Only paid purchases have a receipt to resend');
    res.status(202).json(await producer.enqueue('purchase-receipt', { purchaseId: id, resend: true }));
  });

  admin.post('/api/admin/purchases/offline', async (req, res) => {
    const input = offlineSchema.parse(req.body ?? {});
    const [video] = await db.select({ id: videos.id }).from(videos).where(eq(videos.id, input.videoId));
    if (!video) throw notFound('Video not found');
    // Offline orders get a synthetic session id, so the receipt's download link works like a card purchase's.
    const id = randomUUID();
    await db.insert(purchases).values({
      ...input,
      id,
      checkoutSessionId: `offline_${id}`,
      currency: config.CURRENCY,
      source: 'offline',
    });
    const job = await producer
      .enqueue('record-sale', { kind: 'offline', purchaseId: id })
      .catch(async (error) => {
        // Not queued, so nothing is recorded: the owner can simply try again.
        await db.delete(purchases).where(eq(purchases.id, id));
        throw error;
      });
    res.status(202).json({ id, ...job });
  });
}
