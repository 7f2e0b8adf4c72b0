import { useState, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { useWatch } from 'react-hook-form';
import { AlertTriangle, CreditCard, Mail, MessageCircle, type LucideIcon } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, isApiError } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { BuyerFields, handedOverBuyer, readBuyer, useBuyerForm } from '../../features/shop/buyer-fields.tsx';
import {
  createCheckout,
  isInAppBrowser,
  isVisitorFixable,
  openPaymentTab,
} from '../../features/shop/checkout.ts';
import { isFree, purchasePath, purchaseStorage, useVideo, type Video } from '../../features/shop/queries.ts';
import { VideoPreview } from '../../features/shop/video-preview.tsx';

/** The notice shown when card payment is down (its own page, and inline here). */
export function PaymentUnavailableNotice() {
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-2xl border border-amber-400/40 bg-amber-950/40 p-5 text-left text-amber-100"
    >
      <AlertTriangle className="size-6 shrink-0 text-amber-300" aria-hidden />
      <div>
        <h2 className="font-semibold">Payment System Temporarily Unavailable</h2>
        <p className="mt-1 text-sm">
          Online payments will be restored within 24-48 hours. In the meantime you can still get your video:
          order by email or contact me directly below.
        </p>
      </div>
    </div>
  );
}

/** The e-mail order: a message to the owner with the video and the buyer's details filled in. */
function orderMailto(
  contactEmail: string | undefined,
  video: Video | undefined,
  videoId: string,
  buyer: {
    customerName?: string;
    customerEmail?: string;
  },
): string {
  const title = video?.title ?? 'a video';
  const lines = [
    'Kia ora,',
    '',
    `I would like to order "${title}"${video ? ` (${formatPrice(video.priceCents)})` : ''}.`,
    ...(videoId ? [`Video reference: ${videoId}`] : []),
    ...(videoId ? [`Link: ${window.location.origin}${purchasePath(videoId)}`] : []),
    '',
    `Name: ${buyer.customerName?.trim() ?? ''}`,
    `Email: ${buyer.customerEmail?.trim() ?? ''}`,
    '',
    'Please let me know how to pay.',
    '',
    'Thank you!',
  ];
  const query = `subject=${encodeURIComponent(`Video order: ${title}`)}&body=${encodeURIComponent(lines.join('\n'))}`;
  return `mailto:${contactEmail ?? ''}?${query}`;
}

/**
 * Fallback ways to pay: the buyer's name and e-mail, then card (the checkout
 * again), an e-mail order or getting in touch. `/video-payment-issue` is this page with the notice.
 */
export default function PaymentOptionsPage({ unavailable = false }: { unavailable?: boolean }) {
  const [search] = useSearchParams();
  const [, navigate] = useLocation();
  const videoId = search.get('videoId')?.trim() || purchaseStorage.videoId() || '';
  const video = useVideo(videoId);
  const [initialBuyer] = useState(handedOverBuyer);
  const { form, ready } = useBuyerForm(initialBuyer);
  const buyer = useWatch({ control: form.control });
  const [cardFailed, setCardFailed] = useState(false);
  const [opening, setOpening] = useState(false);
  const { contactEmail } = publicConfig();
  const current = video.data;
  const showUnavailable = unavailable || search.get('unavailable') === '1' || cardFailed;
  // The payment tab closed (or never opened) before the payment page arrived: pay in this tab now.
  const tabClosed = search.get('tab') === 'closed' && !showUnavailable;
  const canPayByCard = current !== undefined && !isFree(current);

  const payByCard = () => {
    const details = readBuyer(form);
    if (!details || !current) return;
    const tab = tabClosed ? null : openPaymentTab();
    setOpening(true);
    createCheckout({ videoId: current.id, ...details, verificationToken: purchaseStorage.token(current.id) })
      .then(({ url }) => {
        track('Checkout Started', { video: current.title });
        if (tab && !tab.closed) tab.location.href = url;
        else window.location.assign(url);
      })
      .catch((error: unknown) => {
        tab?.close();
        if (isApiError(error, 'unauthorized') && current.passwordProtected) {
          purchaseStorage.forgetToken(current.id);
          toast({
            title: 'Password Required',
            description: 'Please enter the video password.',
            variant: 'destructive',
          });
          navigate(purchasePath(current.id));
          return;
        }
        if (isVisitorFixable(error) && error instanceof ApiError && error.serverMessage) {
          toast({ title: 'Purchase Failed', description: error.serverMessage, variant: 'destructive' });
          return;
        }
        setCardFailed(true);
      })
      .finally(() => setOpening(false));
  };

  // The ways to pay side by side, each with the button that starts it.
  const ways: PaymentWay[] = [
    {
      icon: CreditCard,
      title: 'Card payment',
      text: `Pay securely online; the payment page opens in ${tabClosed || isInAppBrowser() ? 'this tab' : 'a new tab'}.`,
      action: (
        <Button className="w-full" disabled={!ready || !canPayByCard || opening} onClick={payByCard}>
          {opening ? 'Opening payment...' : 'Card Payment'}
        </Button>
      ),
    },
    {
      icon: Mail,
      title: 'Email order',
      text: 'Send a ready-made order e-mail; I reply with how to pay.',
      action: ready ? (
        <Button asChild variant="secondary" className="w-full">
          <a href={orderMailto(contactEmail, current, videoId, buyer)}>Email Order</a>
        </Button>
      ) : (
        <Button variant="secondary" className="w-full" disabled>
          Email Order
        </Button>
      ),
    },
    {
      icon: MessageCircle,
      title: 'Direct contact',
      text: 'Ask a question or arrange payment another way.',
      action: (
        <Button asChild variant="secondary" className="w-full">
          <Link href="/#contact">Contact Me</Link>
        </Button>
      ),
    },
  ];

  return (
    <ShopLayout title={unavailable ? 'Payment System Temporarily Unavailable' : 'Payment Options'}>
      <div className="mx-auto max-w-3xl space-y-6">
        <h1 className="text-3xl font-bold text-white sm:text-4xl">Payment Options</h1>
        {showUnavailable && <PaymentUnavailableNotice />}
        {tabClosed && (
          <p role="status" className="rounded-2xl border border-white/10 bg-stage-800/70 p-4 text-zinc-200">
            The secure payment page did not open: its tab was closed or blocked before it loaded. Pay by card
            again below (it opens in this tab this time), or choose another way to pay.
          </p>
        )}

        {current ? (
          <div className="flex items-center gap-4 rounded-2xl border border-white/10 bg-stage-800/70 p-4">
            <VideoPreview
              previewUrl={current.previewUrl}
              title={current.title}
              className="w-28 shrink-0 rounded-lg sm:w-36"
            />
            <div className="min-w-0">
              <p className="text-sm text-zinc-400">You are ordering</p>
              <p className="line-clamp-2 text-lg font-semibold text-white">{current.title}</p>
              <Badge className="mt-1">{formatPrice(current.priceCents)}</Badge>
            </div>
          </div>
        ) : video.isError || !videoId ? (
          <p className="text-zinc-400">
            No video is selected.{' '}
            <Link href="/videos" className="text-spotlight-300 underline">
              Choose one in the video library
            </Link>
            , or tell me which performance you are after.
          </p>
        ) : null}

        <form
          noValidate
          aria-label="Your details"
          className="rounded-2xl border border-white/10 bg-stage-800/70 p-6"
          onSubmit={(event) => {
            event.preventDefault();
            if (canPayByCard) payByCard();
          }}
        >
          <h2 className="text-lg font-semibold text-white">1. Your details</h2>
          <p className="mt-1 text-sm text-zinc-400">Used for your receipt and to send you the video.</p>
          <BuyerFields form={form} idPrefix="options" className="mt-4 sm:grid-cols-2" />
        </form>

        <section aria-labelledby="how-to-pay">
          <h2 id="how-to-pay" className="text-lg font-semibold text-white">
            2. Choose how to pay
          </h2>
          {cardFailed && (
            <div
              role="alert"
              className="mt-4 rounded-2xl border border-curtain-500/40 bg-curtain-500/10 p-4 text-sm text-red-100"
            >
              <p className="font-semibold">Online Payment Unavailable</p>
              <p className="mt-1">
                Card payment could not be started. Please use one of the alternative payment methods below: an
                email order, or contact me directly.
              </p>
            </div>
          )}
          <div className="mt-4 grid gap-4 md:grid-cols-3">
            {ways.map((way) => (
              <Option key={way.title} {...way} />
            ))}
          </div>
          {!ready && (
            <p className="mt-3 text-sm text-zinc-500">
              Enter your name and email above to pay by card or email.
            </p>
          )}
        </section>
      </div>
    </ShopLayout>
  );
}

/** A way to pay: its icon and title, what it does, and the button that starts it. */
interface PaymentWay {
  icon: LucideIcon;
  title: string;
  text: string;
  action: ReactNode;
}

function Option({ icon: Icon, title, text, action }: PaymentWay) {
  return (
    <div className={`flex flex-col ${cardClass} p-5`}>
      <div className="flex items-center gap-2 text-spotlight-300">
        <Icon className="size-5" aria-hidden />
        <h3 className="font-semibold text-white">{title}</h3>
      </div>
      <p className="mt-2 flex-1 text-sm text-zinc-400">{text}</p>
      <div className="mt-4">{action}</div>
    </div>
  );
}

export function PaymentIssuePage() {
  return <PaymentOptionsPage unavailable />;
}
