import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'wouter';
import { CheckCircle2 } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { api } from '../../lib/api.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';

interface PurchaseStatus {
  status: 'pending' | 'paid' | 'failed' | 'refunded' | 'expired';
  videoId: string;
  downloadUrl?: string;
}

const POLL_MS = 1_500;
const GIVE_UP_AFTER_MS = 2 * 60_000;

/** Polls the purchase until the worker has recorded the sale (DESIGN.md section 1). */
export default function PurchaseSuccessPage() {
  const [search] = useSearchParams();
  const sessionId = search.get('session_id') ?? '';
  const startedAt = Date.now();
  const { contactEmail } = publicConfig();
  const purchase = useQuery({
    queryKey: ['/api/purchases', sessionId],
    queryFn: () => api.get<PurchaseStatus>(`/api/purchases/${encodeURIComponent(sessionId)}`),
    enabled: sessionId !== '',
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' && Date.now() - startedAt < GIVE_UP_AFTER_MS ? POLL_MS : false,
  });
  const support = contactEmail ? (
    <a className="text-spotlight-300 underline" href={`mailto:${contactEmail}`}>
      {contactEmail}
    </a>
  ) : (
    'support'
  );

  let body;
  if (!sessionId) body = <p className="text-red-300">Invalid purchase session. Please try again.</p>;
  else if (purchase.isError)
    body = (
      <p className="text-red-300">
        We could not identify your video. Please contact {support} and quote your session reference{' '}
        {sessionId.slice(0, 20)}.
      </p>
    );
  else if (!purchase.data || purchase.data.status === 'pending')
    body = (
      <p className="text-zinc-300" role="status">
        Confirming your payment… this usually takes a few seconds.
      </p>
    );
  else if (purchase.data.status === 'paid' && purchase.data.downloadUrl)
    body = (
      <>
        <CheckCircle2 className="mx-auto size-14 text-emerald-400" aria-hidden />
        <p className="mt-4 text-lg text-white">
          Thank you! Your payment is confirmed and a receipt is on its way by e-mail.
        </p>
        <Button asChild size="lg" className="mt-6">
          <Link href={purchase.data.downloadUrl}>Watch &amp; Download</Link>
        </Button>
      </>
    );
  else body = <p className="text-red-300">Failed to process your purchase. Please contact support.</p>;

  return (
    <ShopLayout title="Your Purchase">
      <div className="mx-auto max-w-xl rounded-2xl border border-white/10 bg-stage-800/70 p-8 text-center">
        <h1 className="mb-6 text-3xl font-bold text-white">Your Purchase</h1>
        {body}
      </div>
    </ShopLayout>
  );
}
