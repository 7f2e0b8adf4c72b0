import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Package } from 'lucide-react';
import { formatMoney, formatPrice } from '@app/shared/format';
import type { ShowcaseBundle } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { addBundleToCart } from './add-to-cart.tsx';
import { useCart } from './cart-store.ts';

/** The showcase page's "Buy all N videos for NZ$X", with the saving; nothing when it has no bundle. */
export function BundleOffer({ showcaseId }: { showcaseId: string }) {
  const offer = useQuery({
    queryKey: ['/api/showcases', showcaseId, 'bundle'],
    queryFn: () => api.get<ShowcaseBundle>(`/api/showcases/${encodeURIComponent(showcaseId)}/bundle`),
    retry: (failures, error) => !isApiError(error, 'not_found') && failures < 2,
  });
  const inCart = useCart().some((entry) => entry.kind === 'bundle' && entry.showcaseId === showcaseId);
  const bundle = offer.data;
  if (!bundle) return null;
  return (
    <section
      aria-label="Showcase bundle"
      className="mt-6 flex flex-col gap-4 rounded-2xl border border-spotlight-400/40 bg-spotlight-400/5 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <Package className="mt-0.5 size-6 shrink-0 text-spotlight-300" aria-hidden />
        <div>
          <p className="font-semibold text-white">
            The whole of {bundle.name}: {bundle.videoCount} videos in one purchase
          </p>
          {bundle.savingCents > 0 && (
            <p className="text-sm text-zinc-300">
              Save {formatMoney(bundle.savingCents)} on {formatMoney(bundle.separateCents)} bought one by one.
            </p>
          )}
        </div>
      </div>
      {inCart ? (
        <Button asChild variant="secondary">
          <Link href="/cart">In your cart: view cart</Link>
        </Button>
      ) : (
        <Button size="wrap" onClick={() => addBundleToCart(bundle)}>
          Buy all {bundle.videoCount} videos for {formatPrice(bundle.priceCents)}
        </Button>
      )}
    </section>
  );
}
