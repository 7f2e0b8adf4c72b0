import { z } from 'zod';
import { documentLinkSchema } from './gst.ts';
import { checkoutRequestSchema } from './requests.ts';
import { CART_MAX_ITEMS, purchaseStatuses } from '../constants.ts';

// The cart, bundles and what a purchase bought (docs/decisions/023): requests the api parses and the
// answers the web app reads. Browser-safe.

export { CART_MAX_ITEMS };

const idSchema = z.string().trim().min(1).max(100);
const expectedPrice = z.number().int().min(0).max(10_000_000).optional();

/**
 * One thing in the cart. `expectedPriceCents` is the price the buyer saw: it is never charged (the
 * database decides), but when the price has changed since, nothing is charged and the cart says so.
 */
export const cartItemSchema = z.union([
  z.strictObject({
    videoId: idSchema,
    verificationToken: z.string().max(2_000).optional(),
    expectedPriceCents: expectedPrice,
  }),
  z.strictObject({ showcaseId: idSchema, expectedPriceCents: expectedPrice }),
  // "Buy all of a dancer's (or a studio's) routines" at one competition (docs/decisions/032).
  z.strictObject({ dancerId: idSchema, expectedPriceCents: expectedPrice }),
  z.strictObject({ studioId: idSchema, expectedPriceCents: expectedPrice }),
]);
export type CartItemRequest = z.infer<typeof cartItemSchema>;

/** POST /api/cart/checkout. */
export const cartCheckoutRequestSchema = checkoutRequestSchema
  .pick({ customerName: true, customerEmail: true, remindMe: true })
  .extend({
    items: z
      .array(cartItemSchema, { error: 'The cart must be a list of videos' })
      .min(1, 'Your cart is empty')
      .max(CART_MAX_ITEMS, `A cart holds at most ${CART_MAX_ITEMS} videos`),
  });
export type CartCheckoutRequest = z.infer<typeof cartCheckoutRequestSchema>;

/** POST /api/cart/check: the cart alone, priced without writing anything. */
export const cartCheckRequestSchema = cartCheckoutRequestSchema.pick({ items: true });

/** Why the server would not charge an item as the cart has it. */
export const cartProblemReasons = [
  'unknown',
  'hidden',
  'free',
  'repriced',
  'protected',
  'repeated',
  'no-bundle',
  'in-bundle',
  // Its file could not be processed: nothing to deliver.
  'unavailable',
  // A paid video still being processed: for sale once ready.
  'not-ready',
] as const;
export type CartProblemReason = (typeof cartProblemReasons)[number];

/** An item the checkout refused, with the message the cart page shows beside it. */
export const cartProblemSchema = z.object({
  /** The item's position in the request, and its id. */
  index: z.number().int(),
  videoId: z.string().optional(),
  showcaseId: z.string().optional(),
  dancerId: z.string().optional(),
  studioId: z.string().optional(),
  reason: z.enum(cartProblemReasons),
  message: z.string(),
  /** For `repriced`: the price now. */
  priceCents: z.number().int().optional(),
});
export type CartProblem = z.infer<typeof cartProblemSchema>;

/** The details of a cart_refused error (400, 403 or 409 from POST /api/cart/checkout): nothing was charged, nothing written. */
export const cartRefusalSchema = z.object({ problems: z.array(cartProblemSchema) });
export type CartRefusal = z.infer<typeof cartRefusalSchema>;

/** A video or bundle as the server prices it now (POST /api/cart/check). */
export const pricedCartItemSchema = z.object({
  videoId: z.string().optional(),
  showcaseId: z.string().optional(),
  dancerId: z.string().optional(),
  studioId: z.string().optional(),
  title: z.string(),
  showcaseName: z.string().nullable(),
  priceCents: z.number().int(),
  previewUrl: z.string().nullable(),
  /** For a bundle: how many videos it holds now. */
  videoCount: z.number().int().optional(),
});
export type PricedCartItem = z.infer<typeof pricedCartItemSchema>;

/** POST /api/cart/check: the cart as it would be charged, and what changed since the buyer added it. */
export const cartCheckResponseSchema = z.object({
  items: z.array(pricedCartItemSchema),
  totalCents: z.number().int(),
  problems: z.array(cartProblemSchema),
});
export type CartCheckResponse = z.infer<typeof cartCheckResponseSchema>;

/** GET /api/showcases/{id}/bundle: the showcase's "Buy all" offer (null when it has none). */
export const showcaseBundleSchema = z.object({
  showcaseId: z.string(),
  name: z.string(),
  videoCount: z.number().int(),
  priceCents: z.number().int(),
  /** What the same videos cost one by one. */
  separateCents: z.number().int(),
  savingCents: z.number().int(),
  videoIds: z.array(z.string()),
});
export type ShowcaseBundle = z.infer<typeof showcaseBundleSchema>;

/** One video a purchase bought; downloadUrl (a page of this site) only once paid. */
export const purchaseItemSchema = z.object({
  videoId: z.string().nullable(),
  title: z.string(),
  /** The showcase whose bundle this came with. */
  bundleShowcaseId: z.string().nullable(),
  amountCents: z.number().int(),
  downloadUrl: z.string().optional(),
});
export type PurchaseItem = z.infer<typeof purchaseItemSchema>;

/**
 * GET /api/purchases/{checkoutSessionId}: videoId and downloadUrl are the first video's (the one-video
 * answer, kept as it was); items lists them all.
 */
export const purchaseStatusSchema = z.object({
  status: z.enum(purchaseStatuses),
  videoId: z.string(),
  downloadUrl: z.string().optional(),
  amountCents: z.number().int(),
  items: z.array(purchaseItemSchema),
  /** The purchase's invoice (or receipt) and credit notes, once paid (decision 029). */
  documents: z.array(documentLinkSchema).optional(),
});
export type PurchaseStatusResponse = z.infer<typeof purchaseStatusSchema>;
