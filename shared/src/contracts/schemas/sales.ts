import { z } from 'zod';
import { documentLinkSchema } from './gst.ts';
import { calendarDateSchema } from './requests.ts';
import { purchaseStatuses } from '../constants.ts';

// The owner's sales screens (docs/decisions/023): purchases with their items, the CSV's filters, the
// dashboard's figures, and offline payments for several videos or a bundle. Browser-safe.

/** GET /api/admin/purchases and purchases.csv: which purchases. */
export const purchaseFilterSchema = z.object({
  status: z.enum(purchaseStatuses).optional(),
  /** Purchases holding this video. */
  videoId: z.string().trim().min(1).max(100).optional(),
  q: z.string().trim().max(200).optional(),
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
});
export type PurchaseFilter = z.infer<typeof purchaseFilterSchema>;

export const adminPurchaseItemSchema = z.object({
  videoId: z.string().nullable(),
  title: z.string(),
  bundleShowcaseId: z.string().nullable(),
  bundleName: z.string().nullable(),
  amountCents: z.number().int(),
});
export type AdminPurchaseItem = z.infer<typeof adminPurchaseItemSchema>;

export const adminPurchaseSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  status: z.enum(purchaseStatuses),
  source: z.enum(['stripe', 'offline']),
  buyerName: z.string(),
  buyerEmail: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  checkoutSessionId: z.string().nullable(),
  paymentIntentId: z.string().nullable(),
  receiptSentAt: z.string().nullable(),
  /** Its invoice and credit notes (the owner's PDF links). */
  documents: z.array(documentLinkSchema).optional(),
  itemCount: z.number().int(),
  items: z.array(adminPurchaseItemSchema),
});
export type AdminPurchase = z.infer<typeof adminPurchaseSchema>;

/** GET /api/admin/purchases: a page of purchases, newest first, and totals over every match. */
export const adminPurchaseListSchema = z.object({
  purchases: z.array(adminPurchaseSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totals: z.object({
    count: z.number().int(),
    paidCount: z.number().int(),
    /** Videos in the paid purchases. */
    paidItems: z.number().int(),
    paidCents: z.number().int(),
    refundedCents: z.number().int(),
  }),
});
export type AdminPurchaseList = z.infer<typeof adminPurchaseListSchema>;

/** GET /api/admin/sales-summary: the dashboard's sales card (paid purchases, the videos in them, revenue). */
export const salesSummarySchema = z.object({
  paidPurchases: z.number().int(),
  paidItems: z.number().int(),
  revenueCents: z.number().int(),
  last30DaysItems: z.number().int(),
  last30DaysCents: z.number().int(),
});
export type SalesSummary = z.infer<typeof salesSummarySchema>;

/** POST /api/admin/purchases/offline: a payment made outside Stripe, for videos and/or bundles. */
export const offlinePurchaseRequestSchema = z
  .object({
    videoId: z.string().trim().min(1).max(100).optional(),
    videoIds: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    showcaseIds: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    buyerName: z.string().trim().min(1, 'Name is required').max(200),
    buyerEmail: z.email({ error: 'Enter a valid email address' }).max(320),
    amountCents: z.number().int().min(0).max(10_000_000),
  })
  .refine((input) => Boolean(input.videoId || input.videoIds?.length || input.showcaseIds?.length), {
    message: 'Choose at least one video or bundle',
    path: ['videoIds'],
  });
export type OfflinePurchaseRequest = z.infer<typeof offlinePurchaseRequestSchema>;
