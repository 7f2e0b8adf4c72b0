import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { ExternalLink } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Badge, ProtectedBadge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, isApiError } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import {
  BuyerDetailsForm,
  BuyerFields,
  SecurePaymentNote,
  useBuyerForm,
} from '../../features/shop/buyer-fields.tsx';
import {
  createCheckout,
  isPaymentUnavailable,
  isVisitorFixable,
  openPaymentTab,
  PAYMENT_TAB_FALLBACK_MS,
  type Buyer,
} from '../../features/shop/checkout.ts';
import {
  availabilityNotice,
  downloadPath,
  isFree,
  isWrongPassword,
  paymentOptionsPath,
  purchaseStorage,
  recordVisit,
  useVideo,
  verifyVideoPassword,
  type Video,
} from '../../features/shop/queries.ts';
import { VideoPreview } from '../../features/shop/video-preview.tsx';
import { VideoLoading, VideoLoadProblem } from '../../features/shop/video-states.tsx';
import { RequestRemoval } from '../../features/privacy/removal-request.tsx';
import { PasswordGate } from './password-gate.tsx';
import { AddToCartButton } from '../../features/cart/add-to-cart.tsx';

type Stage = { kind: 'form' } | { kind: 'opening' } | { kind: 'paying'; url: string };

export default function PurchasePage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const video = useVideo(id);
  const current = video.data;
  const free = current !== undefined && isFree(current);

  // Free videos are never sold: their page is the download page.
  useEffect(() => {
    if (current && free) navigate(downloadPath(current.id), { replace: true });
  }, [current, free, navigate]);

  if (video.isPending || free) return <VideoLoading title="Buy Video" />;
  if (!current) return <VideoLoadProblem error={video.error} videoId={id} />;
  return <PurchaseView key={current.id} video={current} />;
}

function PurchaseView({ video }: { video: Video }) {
  const [, navigate] = useLocation();
  const [token, setToken] = useState(() => purchaseStorage.token(video.id));
  const [checking, setChecking] = useState(false);
  const [stage, setStage] = useState<Stage>({ kind: 'form' });
  const { form, ready } = useBuyerForm();
  const fallbackTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(fallbackTimer.current), []);
  useEffect(() => recordVisit(video.id), [video.id]);
  const locked = video.passwordProtected && !token;
  // Once the password is given, the protected video's own frame and clip, behind its token.
  const unlocked = useVideo(video.passwordProtected && token ? video.id : '', undefined, token);
  const shown = unlocked.data ?? video;
  const notice = availabilityNotice(video);

  const verify = async (password: string) => {
    setChecking(true);
    try {
      setToken(await verifyVideoPassword(video.id, password));
      toast({
        title: 'Access Granted',
        description: 'Password verified. You can now proceed with purchase.',
        variant: 'success',
      });
      return true;
    } catch (error) {
      const wrong = isWrongPassword(error);
      toast({
        title: wrong ? 'Access Denied' : 'Error',
        description: wrong
          ? 'Incorrect password. Please try again.'
          : (error instanceof ApiError && error.serverMessage) || 'Please try again.',
        variant: 'destructive',
      });
      return !wrong;
    } finally {
      setChecking(false);
    }
  };

  /**
   * The payment page opens in a new tab; when that tab is not open 3 seconds after
   * the click (closed before the payment page arrived), or the payment system is down, the visitor
   * goes to the payment options page, which finds the video (and token) in session storage and says
   * what happened. Where no tab can be opened (blocked, or an in-app browser such as Facebook's), the
   * payment page opens in this tab instead, and the success page brings the buyer back.
   * Once the tab has been sent to the payment provider it cannot be watched any more (the site's
   * Cross-Origin-Opener-Policy makes it look closed), so the check stops there.
   */
  const buy = (buyer: Buyer) => {
    purchaseStorage.save(video.id);
    const tab = openPaymentTab();
    let settled = false;
    const settle = () => {
      settled = true;
      window.clearTimeout(fallbackTimer.current);
    };
    const toOptions = (options: { unavailable?: boolean; tabClosed?: boolean }) => {
      if (settled) return;
      settle();
      tab?.close();
      // The name and e-mail go along in the history entry, so the options page need not ask again.
      navigate(paymentOptionsPath(video.id, options), { state: { buyer } });
    };
    setStage({ kind: 'opening' });
    window.clearTimeout(fallbackTimer.current);
    if (tab)
      fallbackTimer.current = window.setTimeout(() => {
        if (tab.closed) toOptions({ tabClosed: true });
      }, PAYMENT_TAB_FALLBACK_MS);

    createCheckout({ videoId: video.id, ...buyer, verificationToken: token }).then(
      ({ url }) => {
        if (settled) return;
        if (tab?.closed) return toOptions({ tabClosed: true });
        settle();
        track('Checkout Started', { video: video.title });
        if (!tab) return window.location.assign(url);
        tab.location.href = url;
        setStage({ kind: 'paying', url });
      },
      (error: unknown) => {
        if (settled) return;
        if (isPaymentUnavailable(error)) return toOptions({ unavailable: true });
        if (isApiError(error, 'unauthorized') && video.passwordProtected) {
          // The password token expired (or never was): ask for the password again.
          settle();
          tab?.close();
          purchaseStorage.forgetToken(video.id);
          setToken(undefined);
          setStage({ kind: 'form' });
          toast({
            title: 'Password Required',
            description: 'Please enter the video password.',
            variant: 'destructive',
          });
          return;
        }
        toast({
          title: 'Purchase Failed',
          description:
            (isVisitorFixable(error) && error instanceof ApiError && error.serverMessage) ||
            'Unable to process your purchase. Please try again.',
          variant: 'destructive',
        });
        if (!isVisitorFixable(error)) return toOptions({});
        settle();
        tab?.close();
        setStage({ kind: 'form' });
      },
    );
  };

  return (
    <ShopLayout title={`Buy ${video.title}`}>
      <div className="mx-auto grid max-w-5xl gap-10 lg:grid-cols-2">
        <div>
          <VideoPreview
            previewUrl={shown.previewUrl}
            previewClipUrl={shown.previewClipUrl}
            title={video.title}
            className="rounded-2xl"
          />
          <h1 className="mt-6 text-3xl font-bold text-white">{video.title}</h1>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <Badge>{formatPrice(video.priceCents)}</Badge>
            {video.passwordProtected && <ProtectedBadge />}
          </div>
          <p className="mt-4 whitespace-pre-line text-zinc-400">{video.description}</p>
          <Link href="/videos" className="mt-6 inline-block text-sm text-spotlight-300 hover:underline">
            ← Back to Videos
          </Link>
          <div>
            <RequestRemoval target={{ videoId: video.id }} />
          </div>
        </div>
        <div className="space-y-6">
          {notice ? (
            <p role="status" className="rounded-2xl border border-white/10 bg-stage-800/70 p-6 text-zinc-200">
              {notice}
            </p>
          ) : locked ? (
            <PasswordGate buttonLabel="Verify Password" busy={checking} onSubmit={verify} />
          ) : stage.kind === 'paying' ? (
            <PayingNotice videoId={video.id} url={stage.url} />
          ) : (
            <BuyerDetailsForm
              form={form}
              label="Buy this video"
              className="rounded-2xl border border-white/10 bg-stage-800/70 p-6"
              onBuyer={buy}
            >
              <h2 className="text-lg font-semibold text-white">Your details</h2>
              <p className="mt-1 text-sm text-zinc-400">Your receipt and download link go to this address.</p>
              <BuyerFields form={form} idPrefix="buyer" className="mt-4" />
              <Button
                type="submit"
                size="lg"
                className="mt-6 w-full"
                disabled={!ready || stage.kind === 'opening'}
              >
                {stage.kind === 'opening' ? 'Opening payment...' : `Buy Now ${formatPrice(video.priceCents)}`}
              </Button>
              <AddToCartButton video={video} token={token} size="lg" className="mt-3 w-full" />
              <p className="mt-2 text-center text-xs text-zinc-500">
                Buying several videos? Add them to your cart and pay once.
              </p>
              <SecurePaymentNote />
            </BuyerDetailsForm>
          )}
        </div>
      </div>
    </ShopLayout>
  );
}

function PayingNotice({ videoId, url }: { videoId: string; url: string }) {
  return (
    <div role="status" className="rounded-2xl border border-spotlight-400/30 bg-stage-800/70 p-6">
      <h2 className="text-lg font-semibold text-white">Complete your payment in the new tab</h2>
      <p className="mt-2 text-sm text-zinc-300">
        The secure card payment page opened in a new tab. Once you have paid, that tab takes you to your
        video, and your receipt with the download link arrives by e-mail.
      </p>
      <div className="mt-5 flex flex-wrap gap-3">
        <Button asChild variant="secondary">
          <a href={url} target="_blank" rel="noopener noreferrer">
            <ExternalLink className="size-4" aria-hidden /> Open payment page again
          </a>
        </Button>
        <Button asChild variant="ghost">
          <Link href={paymentOptionsPath(videoId)}>Other ways to pay</Link>
        </Button>
      </div>
    </div>
  );
}
