import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'wouter';
import { formatMoney, formatPrice } from '@app/shared/format';
import type { PerformerPage as Performer } from '@app/shared/schemas';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { cart } from '../../features/cart/cart.ts';
import { useCart } from '../../features/cart/cart-store.ts';
import { OfferCard } from '../../features/cart/offer-card.tsx';
import { OnlineAlertForm } from '../../features/programme/online-alert-form.tsx';
import { RoutineList } from '../../features/programme/routine-list.tsx';
import { BackToLibrary } from '../../features/shop/back-to-library.tsx';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { ACCESS_CODE_REQUIRED } from '@app/shared/privacy';
import { AccessCodeForm } from '../../features/privacy/access-code-form.tsx';
import { RequestRemoval } from '../../features/privacy/removal-request.tsx';
import { api, isApiError } from '../../lib/api.ts';

/**
 * A dancer's or a studio's routines at one competition (/dancers/<id>, /studios/<id>; docs/decisions/032),
 * with "Buy all" at the showcase's price rule. Rendered in the browser: the page names a child, so the
 * api sends it with noindex and no name in its head, and nothing of it is kept on the server.
 */
export default function PerformerRoute() {
  const [location] = useLocation();
  const kind = location.startsWith('/studios/') ? 'studio' : 'dancer';
  const id = useParams<{ id: string }>().id ?? '';
  const page = useQuery({
    queryKey: [`/api/${kind}s`, id],
    queryFn: () => api.get<Performer>(`/api/${kind}s/${encodeURIComponent(id)}`),
    retry: false,
  });
  const data = page.data;
  const heading = data
    ? kind === 'studio'
      ? data.name
      : data.name
        ? `${data.name}'s routines`
        : 'Routines'
    : 'Routines';
  return (
    <ShopLayout title="Routines">
      <div className="mx-auto max-w-7xl">
        <BackToLibrary />
        {isApiError(page.error, ACCESS_CODE_REQUIRED) ? (
          <AccessCodeForm target={kind === 'dancer' ? { dancerId: id } : { studioId: id }} />
        ) : page.isError ? (
          <p role="alert" className="mt-8 text-red-300">
            This page could not be found. Search the{' '}
            <Link href="/videos" className="underline">
              video library
            </Link>{' '}
            by entry number or name instead.
          </p>
        ) : !data ? (
          <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-72 rounded-2xl" />
            ))}
          </div>
        ) : (
          <>
            <h1 className="mt-4 text-3xl font-bold text-white sm:text-4xl">{heading}</h1>
            <p className="mt-2 text-zinc-300">
              <Link href={`/videos/${encodeURIComponent(data.showcase.slug)}`} className="underline">
                {data.showcase.name}
              </Link>{' '}
              · {data.routines.length} {data.routines.length === 1 ? 'routine' : 'routines'}
            </p>
            <RoutinesOffer page={data} />
            {kind === 'dancer' && <DancerAlert page={data} />}
            <h2 className="sr-only">Routines</h2>
            <RoutineList routines={data.routines} alerts={kind !== 'dancer'} />
            {kind === 'dancer' && <RequestRemoval target={{ dancerId: data.id }} />}
          </>
        )}
      </div>
    </ShopLayout>
  );
}

/** A dancer with routines not online yet: one e-mail when a video of hers is (decision 035). */
function DancerAlert({ page }: { page: Performer }) {
  const waiting = page.routines.filter((routine) => routine.videos.length === 0).length;
  if (waiting === 0) return null;
  const whose = page.name ? `${page.name}'s` : 'these';
  return (
    <section
      aria-labelledby="dancer-alert"
      className="mt-6 rounded-2xl border border-white/10 bg-stage-800/70 p-5 sm:max-w-xl"
    >
      <h2 id="dancer-alert" className="font-semibold text-white">
        {waiting === 1 ? `1 of ${whose} routines is` : `${waiting} of ${whose} routines are`} not online yet
      </h2>
      <p className="mt-1 mb-3 text-sm text-zinc-300">We can e-mail you once when the next one is.</p>
      <OnlineAlertForm target={{ dancerId: page.id }} label={`${whose} routines`} />
    </section>
  );
}

function RoutinesOffer({ page }: { page: Performer }) {
  const [, navigate] = useLocation();
  const inCart = useCart().some((entry) => entry.kind === 'routines' && entry.performerId === page.id);
  const offer = page.offer;
  if (!offer) return null;
  const title = offer.title;
  const buy = () => {
    const result = cart.addRoutines({
      kind: 'routines',
      performer: page.kind,
      performerId: page.id,
      title,
      showcaseName: page.showcase.name,
      priceCents: offer.priceCents,
      videoIds: offer.videoIds,
    });
    if (result === 'full')
      toast({ title: 'Not added', description: 'Your cart is full (50 items).', variant: 'destructive' });
    else navigate('/cart');
  };
  const label =
    page.kind === 'dancer' && page.name
      ? `Buy all of ${page.name}'s routines (${offer.routineCount}) for ${formatPrice(offer.priceCents)}`
      : `Buy all ${offer.routineCount} routines for ${formatPrice(offer.priceCents)}`;
  return (
    <OfferCard
      label="Buy all routines"
      title={title}
      detail={
        <p className="text-sm text-zinc-300">
          {offer.videoIds.length} videos in one purchase: save{' '}
          {formatMoney(offer.separateCents - offer.priceCents)} on {formatMoney(offer.separateCents)}.
        </p>
      }
      inCart={inCart}
      buy={{ label, onClick: buy }}
    />
  );
}
