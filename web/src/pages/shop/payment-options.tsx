import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { AlertTriangle, CreditCard, Mail, MessageCircle } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { purchaseStorage, useVideo } from '../../features/shop/queries.ts';

export function PaymentUnavailableNotice() {
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-2xl border border-amber-400/40 bg-amber-950/40 p-5 text-left text-amber-100"
    >
      <AlertTriangle className="size-6 shrink-0 text-amber-300" aria-hidden />
      <div>
        <p className="font-semibold">Payment System Temporarily Unavailable</p>
        <p className="mt-1 text-sm">
          Online payments will be restored within 24-48 hours. Meanwhile you can order by e-mail or contact me
          directly below.
        </p>
      </div>
    </div>
  );
}

/** Fallback ways to pay: card (if it works again), an e-mail order, or getting in touch. */
export default function PaymentOptionsPage({ unavailable = false }: { unavailable?: boolean }) {
  const [search] = useSearchParams();
  const videoId = search.get('videoId') ?? purchaseStorage.videoId() ?? '';
  const video = useVideo(videoId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [cardFailed, setCardFailed] = useState(unavailable);
  const { contactEmail } = publicConfig();
  const ready = name.trim() !== '' && email.trim() !== '';
  const title = video.data?.title ?? 'a video';

  const payByCard = async () => {
    const tab = window.open('', '_blank');
    try {
      const { url } = await api.post<{ url: string }>('/api/checkout', {
        videoId,
        customerName: name.trim(),
        customerEmail: email.trim(),
        verificationToken: purchaseStorage.token(videoId),
      });
      if (tab) tab.location.href = url;
      else window.location.href = url;
    } catch {
      tab?.close();
      setCardFailed(true);
    }
  };
  const mailto = `mailto:${contactEmail ?? ''}?subject=${encodeURIComponent(`Video order: ${title}`)}&body=${encodeURIComponent(
    `Kia ora,\n\nI would like to order "${title}"${video.data ? ` (${formatPrice(video.data.priceCents)})` : ''}.\nVideo reference: ${videoId}\n\nName: ${name}\nEmail: ${email}\n\nThank you!`,
  )}`;

  return (
    <ShopLayout title="Payment Options">
      <div className="mx-auto max-w-2xl space-y-6">
        <h1 className="text-3xl font-bold text-white">Payment Options</h1>
        {cardFailed && <PaymentUnavailableNotice />}
        <p className="text-zinc-400">
          Ordering {video.data ? `“${title}”` : 'your video'}. Enter your details, then choose how to pay.
        </p>
        <div className="grid gap-4 rounded-2xl border border-white/10 bg-stage-800/70 p-6 sm:grid-cols-2">
          <div>
            <Label htmlFor="options-name">Name</Label>
            <Input
              id="options-name"
              autoComplete="name"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div>
            <Label htmlFor="options-email">Email</Label>
            <Input
              id="options-email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <Button size="lg" disabled={!ready || !videoId} onClick={payByCard}>
            <CreditCard className="size-4" aria-hidden /> Card Payment
          </Button>
          <Button
            asChild
            size="lg"
            variant="secondary"
            className={ready ? '' : 'pointer-events-none opacity-50'}
          >
            <a href={mailto} aria-disabled={!ready}>
              <Mail className="size-4" aria-hidden /> Email Order
            </a>
          </Button>
          <Button asChild size="lg" variant="secondary">
            <Link href="/#contact">
              <MessageCircle className="size-4" aria-hidden /> Contact Me
            </Link>
          </Button>
        </div>
        {cardFailed && (
          <p className="text-sm text-zinc-400">
            <strong className="text-zinc-200">Online Payment Unavailable:</strong> please use an e-mail order
            or contact me directly; your video will be sent as soon as payment is arranged.
          </p>
        )}
      </div>
    </ShopLayout>
  );
}

export function PaymentIssuePage() {
  return <PaymentOptionsPage unavailable />;
}
