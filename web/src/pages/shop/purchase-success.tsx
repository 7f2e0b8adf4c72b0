import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'wouter';
import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react';
import type { PurchaseStatusResponse } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { downloadPath, purchasePath, useVideo } from '../../features/shop/queries.ts';
import { cart } from '../../features/cart/cart.ts';
import { DocumentLinks } from '../../features/shop/document-links.tsx';

/**
 * Each status request waits up to 20 s for the sale to be recorded and answers the moment it is
 * (decision 014); 2 s after an answer that is still pending, the page asks again, for up to 2 minutes.
 * The sale is normally recorded within seconds of the payment.
 */
const PURCHASE_WAIT_SECONDS = 20;
export const PURCHASE_POLL_MS = 2_000;
export const PURCHASE_POLL_LIMIT_MS = 2 * 60_000;

/** Polls the purchase until the worker has recorded the sale, or it failed. */
export default function PurchaseSuccessPage() {
  const [search] = useSearchParams();
  const sessionId = search.get('session_id')?.trim() ?? '';
  return (
    <ShopLayout title="Your Purchase">
      <div className="mx-auto max-w-xl rounded-2xl border border-white/10 bg-stage-800/70 p-8 text-center">
        <h1 className="mb-6 text-3xl font-bold text-white">Your Purchase</h1>
        {sessionId ? (
          <PurchaseStatusView sessionId={sessionId} videoIdHint={search.get('video_id') ?? ''} />
        ) : (
          <Problem>
            <p>Invalid purchase session. Please try again.</p>
            <BackToVideos />
          </Problem>
        )}
      </div>
    </ShopLayout>
  );
}

function PurchaseStatusView({ sessionId, videoIdHint }: { sessionId: string; videoIdHint: string }) {
  // Each "Check again" starts another round of polling.
  const [round, setRound] = useState(0);
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setTimedOut(true), PURCHASE_POLL_LIMIT_MS);
    return () => window.clearTimeout(timer);
  }, [round]);
  const purchase = useQuery({
    queryKey: ['/api/purchases', sessionId],
    queryFn: () =>
      api.get<PurchaseStatusResponse>(
        `/api/purchases/${encodeURIComponent(sessionId)}?wait=${PURCHASE_WAIT_SECONDS}`,
      ),
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' && !timedOut ? PURCHASE_POLL_MS : false,
    // A blip while polling should not end the wait; an unknown session (404) ends it at once.
    retry: (failures, error) => !isApiError(error, 'not_found') && failures < 3,
  });
  const data = purchase.data;
  const videoId = data?.videoId ?? videoIdHint;
  const video = useVideo(videoId);
  const title = video.data?.title;
  const reference = sessionId.slice(0, 20);

  if (data?.status === 'paid') return <PaidPurchase data={data} sessionId={sessionId} title={title} />;
  if (purchase.isError && !data) {
    const unknown = isApiError(purchase.error, 'not_found');
    return (
      <Problem>
        {unknown ? (
          <p>
            We could not identify your video. Please contact <Support /> and quote your payment reference{' '}
            <code className="rounded bg-white/10 px-1.5 py-0.5 text-zinc-100">{reference}</code>.
          </p>
        ) : (
          <p>Failed to process your purchase. Please contact support.</p>
        )}
        <BackToVideos />
      </Problem>
    );
  }
  if (!data || data.status === 'pending') {
    if (data && timedOut) {
      return (
        <Problem>
          <p>
            Your payment has not been confirmed yet. If you were charged, please contact <Support /> and quote
            your payment reference{' '}
            <code className="rounded bg-white/10 px-1.5 py-0.5 text-zinc-100">{reference}</code>.
          </p>
          <Button
            variant="secondary"
            className="mt-6"
            onClick={() => {
              setTimedOut(false);
              setRound((value) => value + 1);
              void purchase.refetch();
            }}
          >
            Check again
          </Button>
        </Problem>
      );
    }
    return (
      <div role="status" className="flex flex-col items-center gap-4 text-zinc-300">
        <Loader2 className="size-10 animate-spin text-spotlight-400" aria-hidden />
        <p>Confirming your payment… this usually takes a few seconds.</p>
      </div>
    );
  }
  return (
    <Problem>
      <p>Failed to process your purchase. Please contact support.</p>
      {data.status === 'expired' && (
        <p className="mt-2 text-sm text-zinc-400">
          The payment session expired before it was completed, so nothing was charged.
        </p>
      )}
      {data.status === 'refunded' && (
        <p className="mt-2 text-sm text-zinc-400">This purchase has been refunded.</p>
      )}
      <p className="mt-2 text-sm text-zinc-400">
        Reference: <code className="rounded bg-white/10 px-1.5 py-0.5 text-zinc-100">{reference}</code> ·{' '}
        <Support />
      </p>
      <Button asChild variant="secondary" className="mt-6">
        <Link href={data.items.length > 1 || !data.videoId ? '/cart' : purchasePath(data.videoId)}>
          Try again
        </Link>
      </Button>
    </Problem>
  );
}

/** Every video the purchase bought, each with its own download, and the way back to all of them. */
function PaidPurchase({
  data,
  sessionId,
  title,
}: {
  data: PurchaseStatusResponse;
  sessionId: string;
  title: string | undefined;
}) {
  const videos = data.items.filter((item) => item.videoId);
  // What was bought leaves the cart (this tab's and the others').
  useEffect(() => {
    const bought = new Set(data.items.flatMap((item) => [item.videoId, item.bundleShowcaseId]));
    const left = cart
      .entries()
      .filter((entry) =>
        entry.kind === 'routines'
          ? !entry.videoIds.every((id) => bought.has(id))
          : !bought.has(entry.kind === 'video' ? entry.videoId : entry.showcaseId),
      );
    if (left.length !== cart.entries().length) cart.replace(left);
  }, [data]);
  if (videos.length <= 1) {
    const href = data.downloadUrl ?? downloadPath(data.videoId, sessionId);
    return (
      <>
        <CheckCircle2 className="mx-auto size-14 text-emerald-400" aria-hidden />
        <p className="mt-4 text-lg text-white">
          Thank you! Your payment is confirmed{title ? ` for “${title}”` : ''}.
        </p>
        <p className="mt-2 text-sm text-zinc-400">
          A receipt with this link is on its way by e-mail, so you can come back to your video later.
        </p>
        <Button asChild size="lg" className="mt-6">
          <Link href={href}>Watch &amp; Download</Link>
        </Button>
        <DocumentLinks documents={data.documents} />
        <LibraryLink />
      </>
    );
  }
  return (
    <>
      <CheckCircle2 className="mx-auto size-14 text-emerald-400" aria-hidden />
      <p className="mt-4 text-lg text-white">
        Thank you! Your payment for {videos.length} videos is confirmed.
      </p>
      <p className="mt-2 text-sm text-zinc-400">
        A receipt with these links is on its way by e-mail, so you can come back to your videos later.
      </p>
      <ul aria-label="Your videos" className="mt-6 space-y-3 text-left">
        {videos.map((item) => (
          <li
            key={item.videoId}
            className="flex flex-col gap-3 rounded-xl border border-white/10 bg-stage-900/60 p-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <span className="font-medium break-words text-white">{item.title}</span>
            <Button asChild size="sm" className="shrink-0">
              <Link
                href={item.downloadUrl ?? downloadPath(item.videoId!, sessionId)}
                aria-label={`Watch & Download ${item.title}`}
              >
                Watch &amp; Download
              </Link>
            </Button>
          </li>
        ))}
      </ul>
      <DocumentLinks documents={data.documents} />
      <LibraryLink />
    </>
  );
}

/** The buyer's library (/my-videos), offered on every paid purchase as receipts offer it. */
function LibraryLink() {
  return (
    <p className="mt-6 text-sm text-zinc-400">
      All your videos, any time:{' '}
      <a href="/my-videos" className="text-spotlight-300 underline">
        your video library
      </a>
    </p>
  );
}

function Problem({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="text-red-200">
      <AlertTriangle className="mx-auto mb-4 size-10 text-amber-300" aria-hidden />
      {children}
    </div>
  );
}

function Support() {
  const { contactEmail } = publicConfig();
  if (!contactEmail) return <>support</>;
  return (
    <a className="text-spotlight-300 underline" href={`mailto:${contactEmail}`}>
      {contactEmail}
    </a>
  );
}

function BackToVideos() {
  return (
    <Button asChild variant="secondary" className="mt-6">
      <Link href="/videos">Back to Videos</Link>
    </Button>
  );
}
