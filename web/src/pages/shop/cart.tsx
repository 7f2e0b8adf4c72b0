import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { AlertTriangle, ExternalLink, Lock, Package, ShoppingCart, Trash2 } from 'lucide-react';
import { formatMoney, formatPrice } from '@app/shared/format';
import type {
  CartCheckResponse,
  CartItemRequest,
  CartProblem,
  CartRefusal,
  CheckoutResponse,
} from '@app/shared/schemas';
import { cartRefusalSchema } from '../../lib/schemas.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, ApiError, isApiError } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import {
  BuyerDetailsForm,
  BuyerFields,
  SecurePaymentNote,
  useBuyerForm,
} from '../../features/shop/buyer-fields.tsx';
import { isPaymentUnavailable, openPaymentTab, type Buyer } from '../../features/shop/checkout.ts';
import { purchasePath } from '../../features/shop/queries.ts';
import { VideoPreview } from '../../features/shop/video-preview.tsx';
import { cart } from '../../features/cart/cart.ts';
import { entryKey, useCart, type CartEntry } from '../../features/cart/cart-store.ts';

/** What the server is asked to charge: the ids, a protected video's token, and the price the buyer saw. */
const requestOf = (entry: CartEntry): CartItemRequest =>
  entry.kind === 'video'
    ? {
        videoId: entry.videoId,
        expectedPriceCents: entry.priceCents,
        ...(entry.verificationToken && { verificationToken: entry.verificationToken }),
      }
    : entry.kind === 'bundle'
      ? { showcaseId: entry.showcaseId, expectedPriceCents: entry.priceCents }
      : entry.performer === 'dancer'
        ? { dancerId: entry.performerId, expectedPriceCents: entry.priceCents }
        : { studioId: entry.performerId, expectedPriceCents: entry.priceCents };

/** Problems the buyer only has to see again: the item leaves the cart. */
const removedReasons = new Set<CartProblem['reason']>([
  'unknown',
  'hidden',
  'free',
  'repeated',
  'no-bundle',
  'in-bundle',
  'unavailable',
]);

/**
 * Brings the cart in line with what the server said about it (entries in the order it was sent):
 * new prices are taken, items no longer for sale leave, an expired password token is dropped. The
 * buyer sees each message and pays only by pressing Pay again.
 */
function applyProblems(sent: CartEntry[], problems: CartProblem[]): string[] {
  if (problems.length === 0) return [];
  const byKey = new Map(
    sent.map((entry, index) => [entryKey(entry), problems.filter((p) => p.index === index)]),
  );
  const next = cart.entries().flatMap((entry): CartEntry[] => {
    const found = byKey.get(entryKey(entry)) ?? [];
    if (found.some((problem) => removedReasons.has(problem.reason))) return [];
    let updated = entry;
    for (const problem of found) {
      if (problem.reason === 'repriced' && problem.priceCents !== undefined)
        updated = { ...updated, priceCents: problem.priceCents };
      if (problem.reason === 'protected' && updated.kind === 'video') {
        const { verificationToken: _expired, ...rest } = updated;
        updated = rest;
      }
    }
    return [updated];
  });
  cart.replace(next);
  return problems.map((problem) => problem.message);
}

const needsPassword = (entry: CartEntry, protectedIds: Set<string>) =>
  entry.kind === 'video' && protectedIds.has(entry.videoId) && !entry.verificationToken;

export default function CartPage() {
  const entries = useCart();
  const [notices, setNotices] = useState<string[]>([]);
  const [paying, setPaying] = useState<{ url: string } | null>(null);
  const [opening, setOpening] = useState(false);
  const [unavailable, setUnavailable] = useState(false);
  const { form, ready } = useBuyerForm();
  const items = useMemo(() => entries.map(requestOf), [entries]);

  // The server's prices and names for what the browser kept; what changed since is applied at once.
  const check = useQuery({
    queryKey: ['/api/cart/check', items],
    queryFn: () => api.post<CartCheckResponse>('/api/cart/check', { items }),
    enabled: items.length > 0,
  });
  const checkedFor = useRef<unknown>(null);
  useEffect(() => {
    if (!check.data || checkedFor.current === check.data) return;
    checkedFor.current = check.data;
    const messages = applyProblems(entries, check.data.problems);
    if (messages.length) setNotices((now) => [...new Set([...now, ...messages])]);
  }, [check.data, entries]);

  // Protected videos the server asked a password for (their token expired).
  const protectedIds = useMemo(
    () =>
      new Set(
        (check.data?.problems ?? [])
          .filter((problem) => problem.reason === 'protected' && problem.videoId)
          .map((problem) => problem.videoId!),
      ),
    [check.data],
  );
  const showcaseNames = useMemo(() => {
    const names = new Map<string, string | null>();
    for (const item of check.data?.items ?? []) if (item.videoId) names.set(item.videoId, item.showcaseName);
    return names;
  }, [check.data]);

  const total = entries.reduce((sum, entry) => sum + entry.priceCents, 0);
  const locked = entries.some((entry) => needsPassword(entry, protectedIds));

  const pay = (buyer: Buyer) => {
    const sent = cart.entries();
    const tab = openPaymentTab();
    setOpening(true);
    setUnavailable(false);
    api
      .post<CheckoutResponse>('/api/cart/checkout', { ...buyer, items: sent.map(requestOf) })
      .then(
        ({ url }) => {
          track('Checkout Started', { items: String(sent.length) });
          if (!tab || tab.closed) return window.location.assign(url);
          tab.location.href = url;
          setPaying({ url });
        },
        (error: unknown) => {
          tab?.close();
          if (isPaymentUnavailable(error)) {
            setUnavailable(true);
            return;
          }
          const refusal = refusalOf(error);
          if (refusal) {
            setNotices((now) => [...new Set([...now, ...applyProblems(sent, refusal.problems)])]);
            toast({
              title: 'Your cart changed',
              description: 'Nothing was charged. Check your cart, then press Pay again.',
              variant: 'destructive',
            });
            return;
          }
          toast({
            title: 'Purchase Failed',
            description: (error instanceof ApiError && error.serverMessage) || 'Please try again.',
            variant: 'destructive',
          });
        },
      )
      .finally(() => setOpening(false));
  };

  return (
    <ShopLayout title="Your Cart">
      <div className="mx-auto max-w-5xl">
        <h1 className="text-3xl font-bold text-white">Your Cart</h1>
        {notices.length > 0 && (
          <div
            role="alert"
            className="mt-6 rounded-2xl border border-amber-300/40 bg-amber-300/10 p-4 text-sm text-amber-100"
          >
            <p className="flex items-center gap-2 font-semibold">
              <AlertTriangle className="size-4" aria-hidden /> Your cart changed since you added these videos
            </p>
            <ul className="mt-2 list-disc space-y-1 pl-6">
              {notices.map((notice) => (
                <li key={notice}>{notice}</li>
              ))}
            </ul>
            <p className="mt-2">Nothing has been charged. Check the total below before you pay.</p>
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => setNotices([])}>
              Dismiss
            </Button>
          </div>
        )}
        {entries.length === 0 ? (
          <div className="mt-10 rounded-2xl border border-white/10 bg-stage-800/70 p-8 text-center">
            <ShoppingCart className="mx-auto size-10 text-zinc-500" aria-hidden />
            <p className="mt-4 text-zinc-300">Your cart is empty.</p>
            <Button asChild className="mt-6">
              <Link href="/videos">Browse the video library</Link>
            </Button>
          </div>
        ) : (
          <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
            <ul aria-label="Videos in your cart" className="space-y-4">
              {entries.map((entry) => (
                <CartLine
                  key={entryKey(entry)}
                  entry={entry}
                  showcaseName={
                    entry.kind === 'video' ? (showcaseNames.get(entry.videoId) ?? entry.showcaseName) : null
                  }
                  needsPassword={needsPassword(entry, protectedIds)}
                />
              ))}
            </ul>
            <div className="space-y-4">
              <div className="rounded-2xl border border-white/10 bg-stage-800/70 p-6">
                <p className="flex items-baseline justify-between text-lg text-white">
                  <span>
                    Total ({entries.length} {entries.length === 1 ? 'item' : 'items'})
                  </span>
                  <span className="font-bold" data-testid="cart-total">
                    {formatMoney(total)}
                  </span>
                </p>
                {paying ? (
                  <div role="status" className="mt-4 text-sm text-zinc-300">
                    <p className="font-semibold text-white">Complete your payment in the new tab</p>
                    <p className="mt-1">
                      Once you have paid, that tab lists your videos with their downloads, and your receipt
                      arrives by e-mail.
                    </p>
                    <Button asChild variant="secondary" className="mt-4">
                      <a href={paying.url} target="_blank" rel="noopener noreferrer">
                        <ExternalLink className="size-4" aria-hidden /> Open payment page again
                      </a>
                    </Button>
                  </div>
                ) : (
                  <BuyerDetailsForm form={form} label="Pay for your cart" className="mt-4" onBuyer={pay}>
                    <p className="text-sm text-zinc-400">
                      Your receipt and download links go to this address.
                    </p>
                    <BuyerFields form={form} idPrefix="cart" className="mt-3" />
                    <Button
                      type="submit"
                      size="lg"
                      className="mt-6 w-full"
                      disabled={!ready || opening || locked || check.isFetching}
                    >
                      {opening ? 'Opening payment...' : `Pay ${formatMoney(total)}`}
                    </Button>
                    {locked && (
                      <p className="mt-2 text-sm text-amber-200">
                        Enter the password of each protected video first.
                      </p>
                    )}
                    <SecurePaymentNote />
                  </BuyerDetailsForm>
                )}
                {unavailable && <Unavailable />}
              </div>
            </div>
          </div>
        )}
      </div>
    </ShopLayout>
  );
}

function refusalOf(error: unknown): CartRefusal | undefined {
  if (!isApiError(error, 'cart_refused')) return undefined;
  const details = cartRefusalSchema.safeParse(error.details);
  return details.success ? details.data : undefined;
}

function CartLine({
  entry,
  showcaseName,
  needsPassword,
}: {
  entry: CartEntry;
  showcaseName: string | null;
  needsPassword: boolean;
}) {
  const title =
    entry.kind === 'video'
      ? entry.title
      : entry.kind === 'bundle'
        ? `All ${entry.videoCount} videos of ${entry.name}`
        : entry.title;
  return (
    <li className="flex gap-4 rounded-2xl border border-white/10 bg-stage-800/70 p-3 sm:p-4">
      {entry.kind === 'video' ? (
        <VideoPreview
          previewUrl={entry.previewUrl}
          title={entry.title}
          className="w-28 shrink-0 rounded-lg sm:w-40"
        />
      ) : (
        <div className="flex aspect-video w-28 shrink-0 items-center justify-center rounded-lg bg-spotlight-400/10 sm:w-40">
          <Package className="size-8 text-spotlight-300" aria-hidden />
        </div>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <p className="font-semibold break-words text-white">{title}</p>
        {entry.kind === 'video' && showcaseName && <p className="text-sm text-zinc-400">{showcaseName}</p>}
        {entry.kind === 'bundle' && (
          <p className="text-sm text-zinc-400">Showcase bundle: every video of {entry.name} when you pay</p>
        )}
        {entry.kind === 'routines' && (
          <p className="text-sm text-zinc-400">
            {entry.videoIds.length} videos from {entry.showcaseName}
          </p>
        )}
        {needsPassword && entry.kind === 'video' && (
          <Link
            href={purchasePath(entry.videoId)}
            className="mt-1 inline-flex items-center gap-1 text-sm text-amber-200 underline"
          >
            <Lock className="size-3.5" aria-hidden /> Enter its password again
          </Link>
        )}
        <div className="mt-auto flex items-center justify-between gap-2 pt-2">
          <span className="font-semibold text-spotlight-300">{formatPrice(entry.priceCents)}</span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => cart.remove(entryKey(entry))}
            aria-label={`Remove ${title} from cart`}
          >
            <Trash2 className="size-4" aria-hidden /> Remove
          </Button>
        </div>
      </div>
    </li>
  );
}

function Unavailable() {
  const { contactEmail } = publicConfig();
  return (
    <p role="alert" className="mt-4 text-sm text-red-200">
      Payment System Temporarily Unavailable. Nothing was charged: please try again shortly
      {contactEmail ? (
        <>
          , or order by e-mail at{' '}
          <a className="underline" href={`mailto:${contactEmail}`}>
            {contactEmail}
          </a>
        </>
      ) : null}
      .
    </p>
  );
}
