import { Link, useParams, useSearch } from 'wouter';
import { LIBRARY_MAX_PAGE, MORE_VIDEOS_SLUG } from '@app/shared/library';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Pagination } from '../../features/shop/pagination.tsx';
import { BackToLibrary } from '../../features/shop/back-to-library.tsx';
import { ShowcaseSearch } from '../../features/shop/showcase-search.tsx';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { useShowcasePage } from '../../features/shop/queries.ts';
import { VideoGrid } from '../../features/shop/video-card.tsx';
import { BundleOffer } from '../../features/cart/bundle-offer.tsx';
import { AccessCodeForm } from '../../features/privacy/access-code-form.tsx';
import { ACCESS_CODE_REQUIRED } from '@app/shared/privacy';
import { isApiError } from '../../lib/api.ts';

const pagePath = (slug: string, page: number) =>
  `/videos/${encodeURIComponent(slug)}${page > 1 ? `?page=${page}` : ''}`;

/** A showcase's own page (/videos/<slug>, or /videos/more for videos without one), in numbered pages. */
export default function ShowcasePage() {
  const slug = useParams<{ slug: string }>().slug ?? MORE_VIDEOS_SLUG;
  const requested = Number(new URLSearchParams(useSearch()).get('page') ?? '1');
  const page = Number.isInteger(requested) && requested >= 1 && requested <= LIBRARY_MAX_PAGE ? requested : 1;
  const result = useShowcasePage(slug, page);
  const locked = isApiError(result.error, ACCESS_CODE_REQUIRED);
  const name = result.data
    ? (result.data.showcase?.name ?? 'More Videos')
    : locked
      ? 'Private showcase'
      : 'Videos';

  return (
    <ShopLayout title={`${name}${page > 1 ? ` (page ${page})` : ''}`}>
      <div className="mx-auto max-w-7xl">
        <BackToLibrary />
        {result.isError && isApiError(result.error, ACCESS_CODE_REQUIRED) ? (
          <AccessCodeForm target={{ slug }} />
        ) : result.isError ? (
          <p role="alert" className="mt-8 text-red-300">
            This showcase could not be found. It may have moved; see the whole{' '}
            <Link href="/videos" className="underline">
              video library
            </Link>
            .
          </p>
        ) : !result.data ? (
          <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} className="h-80 rounded-2xl" />
            ))}
          </div>
        ) : (
          <>
            <h1 className="mt-4 text-4xl font-bold text-white">{name}</h1>
            {result.data.showcase?.description && (
              <p className="mt-3 max-w-2xl text-zinc-400">{result.data.showcase.description}</p>
            )}
            <p className="mt-2 text-sm text-zinc-400">
              {result.data.total} {result.data.total === 1 ? 'video' : 'videos'}
              {result.data.pageCount > 1 && ` · page ${page} of ${result.data.pageCount}`}
            </p>
            {/* Unlisted and access-code showcases answer no search (decisions 030 and 032). */}
            {result.data.showcase?.privacy === 'public' && <ShowcaseSearch showcase={result.data.showcase} />}
            {result.data.showcase && <BundleOffer showcaseId={result.data.showcase.id} />}
            {result.data.videos.length === 0 ? (
              <p className="mt-10 text-zinc-400">
                No videos on this page.{' '}
                <Link href={pagePath(slug, 1)} className="font-semibold text-spotlight-300 hover:underline">
                  Go to the first page
                </Link>
              </p>
            ) : (
              <>
                <h2 className="sr-only">Videos on this page</h2>
                <VideoGrid videos={result.data.videos} priority={3} />
              </>
            )}
            <Pagination
              page={page}
              pageCount={result.data.pageCount}
              href={(number) => pagePath(slug, number)}
            />
          </>
        )}
      </div>
    </ShopLayout>
  );
}
