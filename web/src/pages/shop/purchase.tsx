import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { formatPrice } from '@app/shared/format';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, ApiError } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { purchaseStorage, useVideo } from '../../features/shop/queries.ts';
import { VideoPreview } from '../../features/shop/video-preview.tsx';
import { PasswordGate } from './password-gate.tsx';

const FALLBACK_AFTER_MS = 3_000;

export default function PurchasePage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const video = useVideo(id);
  const [token, setToken] = useState<string | undefined>(() => purchaseStorage.token(id));
  const [checking, setChecking] = useState(false);
  const [buying, setBuying] = useState(false);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const notFound = video.error instanceof ApiError && video.error.status === 404;

  useEffect(() => {
    if (notFound)
      toast({
        title: 'Video not found',
        description: 'The requested video could not be found.',
        variant: 'destructive',
      });
  }, [notFound]);

  if (video.isPending) {
    return (
      <ShopLayout title="Buy Video">
        <p className="text-center text-zinc-400" role="status">
          Loading video...
        </p>
      </ShopLayout>
    );
  }
  if (notFound || !video.data) {
    return (
      <ShopLayout title="Video Not Found">
        <div className="mx-auto max-w-lg text-center">
          <h1 className="text-3xl font-bold text-white">{notFound ? 'Video Not Found' : 'Error'}</h1>
          <p className="mt-3 text-zinc-400">
            {notFound ? 'The requested video could not be found.' : 'Failed to load video details.'}
          </p>
          <Button asChild className="mt-6">
            <Link href="/videos">Back to Videos</Link>
          </Button>
        </div>
      </ShopLayout>
    );
  }
  const current = video.data;
  const locked = current.passwordProtected && !token;

  const verify = async (password: string) => {
    setChecking(true);
    try {
      const result = await api.post<{ token: string }>('/api/verify-video-password', {
        videoId: current.id,
        password,
      });
      setToken(result.token);
      purchaseStorage.save(current.id, result.token);
      toast({
        title: 'Access Granted',
        description: 'Password verified. You can now proceed with purchase.',
        variant: 'success',
      });
      return true;
    } catch (error) {
      const wrong = error instanceof ApiError && error.status === 401;
      toast({
        title: wrong ? 'Access Denied' : 'Error',
        description: wrong
          ? 'Incorrect password. Please try again.'
          : (error instanceof ApiError && error.serverMessage) || 'Please try again.',
        variant: 'destructive',
      });
      return false;
    } finally {
      setChecking(false);
    }
  };

  const buy = async () => {
    if (!name.trim() || !email.trim()) {
      toast({
        title: 'Missing Information',
        description: 'Please provide your name and email address.',
        variant: 'destructive',
      });
      return;
    }
    purchaseStorage.save(current.id, token);
    // Opened inside the click, or the browser blocks it; its address is set once Stripe answers.
    const tab = window.open('', '_blank');
    setBuying(true);
    const fallback = () => navigate(`/video-payment-options?videoId=${encodeURIComponent(current.id)}`);
    try {
      const { url } = await api.post<{ url: string }>('/api/checkout', {
        videoId: current.id,
        customerName: name.trim(),
        customerEmail: email.trim(),
        verificationToken: token,
      });
      track('Checkout Started', { video: current.title });
      if (tab) tab.location.href = url;
      else window.location.href = url;
      setTimeout(() => {
        if (!tab || tab.closed) fallback();
      }, FALLBACK_AFTER_MS);
    } catch (error) {
      tab?.close();
      if (error instanceof ApiError && error.status === 503) {
        navigate(`/video-payment-issue?videoId=${encodeURIComponent(current.id)}`);
        return;
      }
      toast({
        title: 'Purchase Failed',
        description: 'Unable to process your purchase. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBuying(false);
    }
  };

  return (
    <ShopLayout title={`Buy ${current.title}`}>
      <div className="mx-auto grid max-w-5xl gap-10 lg:grid-cols-2">
        <div>
          <VideoPreview previewUrl={current.previewUrl} title={current.title} className="rounded-2xl" />
          <h1 className="mt-6 text-3xl font-bold text-white">{current.title}</h1>
          <p className="mt-2 text-zinc-400">{current.description}</p>
          <p className="mt-4 text-2xl font-semibold text-spotlight-300">{formatPrice(current.priceCents)}</p>
        </div>
        <div className="space-y-6">
          {locked ? (
            <PasswordGate buttonLabel="Verify Password" busy={checking} onSubmit={verify} />
          ) : current.priceCents === 0 ? (
            <div className="rounded-2xl border border-white/10 bg-stage-800/70 p-6">
              <p className="text-zinc-300">This video is free.</p>
              <Button asChild className="mt-4">
                <Link href={`/video/${current.id}/download`}>Get / Download</Link>
              </Button>
            </div>
          ) : (
            <form
              className="rounded-2xl border border-white/10 bg-stage-800/70 p-6"
              onSubmit={(event) => {
                event.preventDefault();
                void buy();
              }}
            >
              <h2 className="text-lg font-semibold text-white">Your details</h2>
              <p className="mt-1 text-sm text-zinc-400">Your receipt and download link go to this address.</p>
              <Label htmlFor="buyer-name" className="mt-4">
                Name
              </Label>
              <Input
                id="buyer-name"
                autoComplete="name"
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
              <Label htmlFor="buyer-email" className="mt-4">
                Email
              </Label>
              <Input
                id="buyer-email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
              <Button
                type="submit"
                size="lg"
                className="mt-6 w-full"
                disabled={!name.trim() || !email.trim() || buying}
              >
                {buying ? 'Opening payment...' : `Buy Now ${formatPrice(current.priceCents)}`}
              </Button>
              <p className="mt-3 text-xs text-zinc-500">Secure card payment opens in a new tab.</p>
            </form>
          )}
        </div>
      </div>
    </ShopLayout>
  );
}
