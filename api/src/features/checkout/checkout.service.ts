import { eq, inArray } from 'drizzle-orm';
import { purchases, showcases, videos } from '@app/shared/db';
import { formatPrice } from '@app/shared/format';
import { TIER_3_OVER_CENTS } from '@app/shared/gst/money';
import { displayDancerName } from '@app/shared/schemas';
import { availabilityOf, showcaseBundle, writePurchase, type PurchaseLine } from '@app/shared/sales';
import type {
  CartCheckoutRequest,
  CartItemRequest,
  CartProblem,
  CheckoutRequest,
  PricedCartItem,
} from '@app/shared/schemas';
import type { Stripe } from '@app/shared/stripe';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { showcaseGate } from '../privacy/privacy.service.ts';
import { accessCodeRequired, type ShowcaseOpener } from '../privacy/showcase-access.ts';
import { isValidVideoToken } from '../videos/access.ts';
import { videoVisibilityColumns, videoWithVisibility } from '../videos/library.service.ts';
import {
  findPerformer,
  offerTitle,
  routineOffer,
  type PerformerKind,
} from '../programmes/performers.service.ts';

export const PAYMENT_UNAVAILABLE = 'Payment System Temporarily Unavailable';
/**
 * How long a buyer has to pay: the Checkout Session expires then (Stripe allows 30 minutes to 24
 * hours), Stripe sends checkout.session.expired and the purchase becomes expired.
 */
export const CHECKOUT_SESSION_MS = 60 * 60_000;
/** A pending purchase is checked with Stripe from its status page only while it could still be paid. */
export const CHECKABLE_MS = CHECKOUT_SESSION_MS + 5 * 60_000;

/** One line of a checkout: a video, or a showcase bundle (its videos are granted at payment). */
interface CheckoutLine extends PurchaseLine {
  description: string;
}

/**
 * What the checkout refused (nothing charged, nothing written): one message for the whole cart and,
 * in `details.problems`, each line's reason, so the cart page can mark the lines.
 */
function cartRefused(problems: CartProblem[]): HttpError {
  const message =
    problems.length === 1
      ? problems[0]!.message
      : `${problems.length} items in your cart need attention: ${problems[0]!.message}`;
  return new HttpError(statusOf(problems), message, { code: 'cart_refused', details: { problems } });
}

/** Bad input (400) first, then a missing password (403), then changes the buyer only has to confirm (409). */
const statusOf = (problems: CartProblem[]): 400 | 403 | 409 => {
  const reasons = new Set(problems.map((problem) => problem.reason));
  if (
    ['unknown', 'hidden', 'free', 'repeated', 'no-bundle', 'unavailable'].some((reason) =>
      reasons.has(reason as never),
    )
  )
    return 400;
  return reasons.has('protected') ? 403 : 409;
};

const quoted = (title: string) => `“${title}”`;

/** The ids an item names (one of video, showcase, dancer, studio), for problems and repeats. */
const itemIds = (item: CartItemRequest) =>
  'videoId' in item
    ? { videoId: item.videoId }
    : 'showcaseId' in item
      ? { showcaseId: item.showcaseId }
      : 'dancerId' in item
        ? { dancerId: item.dancerId }
        : { studioId: item.studioId };

/**
 * Prices a cart from the database: every item is checked as it is
 * now, whatever the browser kept. Problems name the item; `lines` are what would be charged.
 */
export async function priceCart(
  deps: Pick<Deps, 'db' | 'config'>,
  items: CartItemRequest[],
  canOpen: ShowcaseOpener,
) {
  const { db } = deps;
  const videoIds = items.flatMap((item) => ('videoId' in item ? [item.videoId] : []));
  const showcaseIds = items.flatMap((item) => ('showcaseId' in item ? [item.showcaseId] : []));
  const [videoRows, bundles] = await Promise.all([
    videoIds.length === 0
      ? []
      : db
          .select({
            id: videos.id,
            title: videos.title,
            description: videos.description,
            priceCents: videos.priceCents,
            previewUrl: videos.previewUrl,
            passwordProtected: videos.passwordProtected,
            processingState: videos.processingState,
            showcaseName: showcases.name,
            ...videoVisibilityColumns,
          })
          .from(videos)
          .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
          .where(inArray(videos.id, videoIds)),
    // A bundle behind an access code is for sale only to a browser that typed it.
    Promise.all(
      [...new Set(showcaseIds)].map(async (id) =>
        canOpen(await showcaseGate(db, id)) ? showcaseBundle(db, id) : null,
      ),
    ),
  ]);
  // A dancer's or studio's routines: a fixed set of videos at the showcase's rule, priced here.
  const performers = await Promise.all(
    items.map(async (item) => {
      const kind: PerformerKind | undefined =
        'dancerId' in item ? 'dancer' : 'studioId' in item ? 'studio' : undefined;
      if (!kind) return undefined;
      const performer = await findPerformer(
        db,
        kind,
        'dancerId' in item ? item.dancerId : (item as { studioId: string }).studioId,
      );
      if (!performer || !canOpen(performer.gate)) return null;
      const offer = await routineOffer(db, performer);
      return performer && offer ? { kind, performer, offer } : null;
    }),
  );
  const inPerformerBundle = new Map<string, number>();
  for (const [index, found] of performers.entries())
    for (const id of found?.offer.videoIds ?? [])
      if (!inPerformerBundle.has(id)) inPerformerBundle.set(id, index);
  const videoById = new Map(videoRows.map((row) => [row.id, row]));
  const bundleById = new Map(bundles.flatMap((bundle) => (bundle ? [[bundle.showcaseId, bundle]] : [])));
  const inBundle = new Map<string, string>();
  for (const bundle of bundleById.values()) for (const id of bundle.videoIds) inBundle.set(id, bundle.name);

  const problems: CartProblem[] = [];
  const lines: CheckoutLine[] = [];
  const priced: PricedCartItem[] = [];
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const problem = (reason: CartProblem['reason'], message: string, priceCents?: number) =>
      problems.push({
        index,
        ...itemIds(item),
        reason,
        message,
        ...(priceCents !== undefined && { priceCents }),
      });
    const key = JSON.stringify(itemIds(item));
    if (seen.has(key)) {
      problem('repeated', `Item ${index + 1} is in the cart twice`);
      continue;
    }
    seen.add(key);

    if ('dancerId' in item || 'studioId' in item) {
      const found = performers[index];
      if (!found) {
        problem('no-bundle', `These routines are not offered together (any more)`);
        continue;
      }
      const { kind, performer, offer } = found;
      const overlap = offer.videoIds.find((id) => inPerformerBundle.get(id) !== index);
      const name = kind === 'dancer' ? displayDancerName(performer.name, performer.display) : performer.name;
      const title = offerTitle(kind, name, offer.routineCount);
      if (overlap !== undefined) {
        problem(
          'in-bundle',
          `${quoted(title)} shares a routine with another offer in your cart: buy one of them`,
        );
        continue;
      }
      if (item.expectedPriceCents !== undefined && item.expectedPriceCents !== offer.priceCents)
        problem(
          'repriced',
          `${quoted(title)} now costs ${formatPrice(offer.priceCents)}: check it and pay again`,
          offer.priceCents,
        );
      lines.push({
        videoId: null,
        bundleShowcaseId: null,
        title,
        description: `${offer.videoIds.length} videos from ${performer.showcaseName}`,
        priceCents: offer.priceCents,
        videos: offer.videoIds.map((id, at) => ({
          id,
          title: offer.titles[at]!,
          priceCents: offer.prices[at]!,
        })),
      });
      priced.push({
        ...itemIds(item),
        title,
        showcaseName: performer.showcaseName,
        priceCents: offer.priceCents,
        previewUrl: null,
        videoCount: offer.videoIds.length,
      });
      continue;
    }

    if ('showcaseId' in item) {
      const bundle = bundleById.get(item.showcaseId);
      if (!bundle) {
        problem('no-bundle', `Showcase ${item.showcaseId} has no bundle for sale`);
        continue;
      }
      const title = `All ${bundle.videoCount} videos of ${bundle.name}`;
      if (item.expectedPriceCents !== undefined && item.expectedPriceCents !== bundle.priceCents)
        problem(
          'repriced',
          `${quoted(title)} now costs ${formatPrice(bundle.priceCents)}: check it and pay again`,
          bundle.priceCents,
        );
      lines.push({
        videoId: null,
        bundleShowcaseId: bundle.showcaseId,
        title,
        description: `Every video of ${bundle.name}, as the showcase holds them when you pay`,
        priceCents: bundle.priceCents,
      });
      priced.push({
        showcaseId: bundle.showcaseId,
        title,
        showcaseName: bundle.name,
        priceCents: bundle.priceCents,
        previewUrl: null,
        videoCount: bundle.videoCount,
      });
      continue;
    }

    const video = videoById.get(item.videoId);
    if (!video) {
      problem('unknown', `Video ${item.videoId} is not for sale (it may have been removed)`);
      continue;
    }
    // A hidden video is not named: its title is the owner's to keep private now. Nor is one behind an
    // access code this browser has not typed.
    if (!video.shown || !canOpen(video.gate)) {
      problem('hidden', `Item ${index + 1} is no longer available`);
      continue;
    }
    const availability = availabilityOf(video);
    if (availability === 'unavailable') {
      problem('unavailable', `Item ${index + 1} is no longer available`);
      continue;
    }
    if (availability === 'processing') {
      problem('not-ready', `${quoted(video.title)} is being prepared: it can be bought once it is ready`);
      continue;
    }
    if (video.priceCents === 0) {
      problem('free', `${quoted(video.title)} is free: download it from its page`);
      continue;
    }
    const bundleName = inBundle.get(video.id);
    if (bundleName) {
      problem('in-bundle', `${quoted(video.title)} is already in the bundle of ${bundleName}`);
      continue;
    }
    const performerBundle = inPerformerBundle.get(video.id);
    if (performerBundle !== undefined) {
      const { kind, performer, offer } = performers[performerBundle]!;
      const name = kind === 'dancer' ? displayDancerName(performer.name, performer.display) : performer.name;
      problem(
        'in-bundle',
        `${quoted(video.title)} is already in ${quoted(offerTitle(kind, name, offer.routineCount))}`,
      );
      continue;
    }
    if (video.passwordProtected && !isValidVideoToken(deps, video.id, item.verificationToken)) {
      problem('protected', `${quoted(video.title)} is password protected: enter its password again`);
    }
    if (item.expectedPriceCents !== undefined && item.expectedPriceCents !== video.priceCents)
      problem(
        'repriced',
        `${quoted(video.title)} now costs ${formatPrice(video.priceCents)}: check it and pay again`,
        video.priceCents,
      );
    lines.push({
      videoId: video.id,
      bundleShowcaseId: null,
      title: video.title,
      description: video.description,
      priceCents: video.priceCents,
    });
    priced.push({
      videoId: video.id,
      title: video.title,
      showcaseName: video.showcaseName,
      priceCents: video.priceCents,
      previewUrl: video.previewUrl,
    });
  }
  return { lines, priced, problems, totalCents: lines.reduce((sum, line) => sum + line.priceCents, 0) };
}

/** POST /api/cart/checkout: the whole cart in one Checkout Session, or a cart_refused error. */
export async function checkoutCart(deps: Deps, input: CartCheckoutRequest, canOpen: ShowcaseOpener) {
  const { lines, problems } = await priceCart(deps, input.items, canOpen);
  if (problems.length > 0) throw cartRefused(problems);
  return startCheckout(deps, input, lines, { cancelPath: '/cart' });
}

/** POST /api/checkout: Buy Now, one video (404 missing or hidden, 400 free, 401 no password token). */
export async function checkoutOneVideo(deps: Deps, input: CheckoutRequest, canOpen: ShowcaseOpener) {
  const video = await videoWithVisibility(deps.db, input.videoId);
  // A hidden video is not for sale any more.
  if (!video?.shown) throw notFound('Video not found');
  if (!canOpen(video.gate)) throw accessCodeRequired();
  if (video.priceCents === 0) throw new HttpError(400, 'This video is free: download it from its page');
  // Only what can be delivered is sold.
  const availability = availabilityOf(video);
  if (availability === 'unavailable') throw new HttpError(409, 'This video is not available');
  if (availability === 'processing')
    throw new HttpError(409, 'This video is being prepared: it can be bought once it is ready');
  if (video.passwordProtected && !isValidVideoToken(deps, video.id, input.verificationToken)) {
    throw new HttpError(401, 'Password verification required');
  }
  const line: CheckoutLine = {
    videoId: video.id,
    bundleShowcaseId: null,
    title: video.title,
    description: video.description,
    priceCents: video.priceCents,
  };
  return startCheckout(deps, input, [line], {
    cancelPath: `/video/${encodeURIComponent(video.id)}/purchase`,
    successQuery: `&video_id=${encodeURIComponent(video.id)}`,
  });
}

/**
 * Writes the pending purchase with its items, then asks Stripe for one Checkout Session with a line
 * item per video or bundle (NZD, promotion codes allowed). A failed Stripe call leaves it failed.
 */
async function startCheckout(
  deps: Deps,
  buyer: { customerName: string; customerEmail: string; remindMe?: boolean | undefined },
  lines: CheckoutLine[],
  urls: { cancelPath: string; successQuery?: string },
): Promise<{ url: string; sessionId: string }> {
  const { db, config, stripe } = deps;
  if (!stripe) throw new HttpError(503, PAYMENT_UNAVAILABLE);
  const purchase = await writePurchase(
    db,
    {
      buyerName: buyer.customerName,
      buyerEmail: buyer.customerEmail,
      amountCents: lines.reduce((sum, line) => sum + line.priceCents, 0),
      currency: config.CURRENCY,
      reminderConsent: buyer.remindMe === true,
    },
    lines,
  );
  const totalCents = lines.reduce((sum, line) => sum + line.priceCents, 0);
  // The video id too for a one-video purchase, as before carts (Stripe's dashboard shows it).
  const only = lines.length === 1 ? lines[0]!.videoId : null;
  const metadata: Record<string, string> = { purchaseId: purchase.id, ...(only && { videoId: only }) };
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        expires_at: Math.floor((Date.now() + CHECKOUT_SESSION_MS) / 1000),
        client_reference_id: purchase.id,
        customer_email: buyer.customerEmail,
        allow_promotion_codes: true,
        // No payment_method_types: Checkout offers every method the owner turns on in the dashboard
        // (cards, Apple Pay, Google Pay, Afterpay/Clearpay, Klarna; decision 029).
        // Over NZ$1,000 a tax invoice must name the buyer and an address: Checkout collects both.
        ...(totalCents > TIER_3_OVER_CENTS && { billing_address_collection: 'required' as const }),
        // With the buyer's consent, an expired session gets a recovery link for one reminder e-mail.
        ...(buyer.remindMe && {
          after_expiration: { recovery: { enabled: true, allow_promotion_codes: true } },
        }),
        line_items: lines.map((line) => ({
          quantity: 1,
          price_data: {
            currency: config.CURRENCY,
            unit_amount: line.priceCents,
            product_data: { name: line.title, description: line.description.slice(0, 500) || undefined },
          },
        })),
        metadata,
        payment_intent_data: { metadata },
        success_url: `${config.PUBLIC_URL}/video-purchase-success?session_id={CHECKOUT_SESSION_ID}${urls.successQuery ?? ''}`,
        cancel_url: `${config.PUBLIC_URL}${urls.cancelPath}`,
      },
      { idempotencyKey: `checkout-${purchase.id}` },
    );
  } catch (error) {
    deps.logger.error({ err: error, purchaseId: purchase.id }, 'Stripe checkout failed');
    await db
      .update(purchases)
      .set({ status: 'failed', updatedAt: new Date() })
      .where(eq(purchases.id, purchase.id));
    throw new HttpError(503, PAYMENT_UNAVAILABLE);
  }
  await db.update(purchases).set({ checkoutSessionId: session.id }).where(eq(purchases.id, purchase.id));
  if (!session.url) throw new HttpError(503, PAYMENT_UNAVAILABLE);
  return { url: session.url, sessionId: session.id };
}
