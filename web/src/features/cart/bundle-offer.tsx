import { useQuery } from '@tanstack/react-query';
import { formatMoney, formatPrice } from '@app/shared/format';
import type { ShowcaseBundle } from '@app/shared/schemas';
import { api } from '../../lib/api.ts';
import { addBundleToCart } from './add-to-cart.tsx';
import { useCart } from './cart-store.ts';
import { OfferCard } from './offer-card.tsx';

/** The showcase page's "Buy all N videos for NZ$X", with the saving; nothing when it has no bundle. */
export function BundleOffer({ showcaseId }: { showcaseId: string }) {
  const offer = useQuery({
    queryKey: ['/api/showcases', showcaseId, 'bundle'],
    queryFn: () => api.get<ShowcaseBundle | null>(`/api/showcases/${encodeURIComponent(showcaseId)}/bundle`),
  });
  const inCart = useCart().some((entry) => entry.kind === 'bundle' && entry.showcaseId === showcaseId);
  const bundle = offer.data;
  if (!bundle) return null;
  return (
    <OfferCard
      label="Showcase bundle"
      title={
        <>
          The whole of {bundle.name}: {bundle.videoCount} videos in one purchase
        </>
      }
      detail={
        bundle.savingCents > 0 && (
          <p className="text-sm text-zinc-300">
            Save {formatMoney(bundle.savingCents)} on {formatMoney(bundle.separateCents)} bought one by one.
          </p>
        )
      }
      inCart={inCart}
      buy={{
        label: (
          <>
            Buy all {bundle.videoCount} videos for {formatPrice(bundle.priceCents)}
          </>
        ),
        onClick: () => addBundleToCart(bundle),
      }}
    />
  );
}
