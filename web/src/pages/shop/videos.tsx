import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { RotateCcw } from 'lucide-react';
import { LIBRARY_MAX_PAGE, MORE_VIDEOS_SLUG, searchParams, type LibraryPageQuery } from '@app/shared/library';
import { Button } from '../../components/ui/button.tsx';
import { FilterSelect, SearchField, useTextInput } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Pagination } from '../../features/shop/pagination.tsx';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { useLibraryShelves, useSearchResults, useShowcases } from '../../features/shop/queries.ts';
import { VideoGrid } from '../../features/shop/video-card.tsx';
import { useInBrowser } from '../../lib/in-browser.ts';
import ShowcasePage from './showcase.tsx';
import { ProgrammeResults } from '../../features/programme/programme-results.tsx';
import { useProgrammeSearch } from '../../features/programme/queries.ts';

/** How long the box waits after the last key before searching (and updating the address). */
const SEARCH_DELAY_MS = 350;

/** The search in the address (`?q=&showcase=&price=&page=`); out-of-range values are ignored. */
function readQuery(search: string): LibraryPageQuery {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const price = params.get('price');
  return {
    q: params.get('q')?.slice(0, 200) || undefined,
    showcase: params.get('showcase') || undefined,
    price: price === 'free' || price === 'paid' ? price : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= LIBRARY_MAX_PAGE ? page : 1,
  };
}

const libraryPath = (query: Partial<LibraryPageQuery>) => {
  const search = searchParams(query);
  return search ? `/videos?${search}` : '/videos';
};

/** /videos, or a showcase's own page at /videos/<slug> (one route, one chunk: the entry stays small). */
export default function VideosRoute() {
  return useParams<{ slug?: string }>().slug ? <ShowcasePage /> : <VideosPage />;
}

function VideosPage() {
  const query = readQuery(useSearch());
  const [, navigate] = useLocation();
  const searching = Boolean(query.q?.trim() || query.showcase || query.price || query.page > 1);
  const inBrowser = useInBrowser();
  const showcases = useShowcases();
  const [text, textInput, setText] = useTextInput(query.q ?? '');
  const box = useRef<HTMLInputElement>(null);

  // The address is the search: Back and Forward bring their text back into the box.
  useEffect(() => setText(query.q ?? ''), [query.q, setText]);
  // Typed before the app took the page over: React keeps the box's text but not as its state.
  useEffect(() => {
    const typed = box.current?.value ?? '';
    if (typed !== (query.q ?? '')) setText(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the app takes the page over
  }, []);
  useEffect(() => {
    if (text.trim() === (query.q ?? '').trim()) return;
    const timer = setTimeout(
      () => navigate(libraryPath({ ...query, q: text.trim(), page: 1 })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text, query, navigate]);

  const filter = (change: Partial<LibraryPageQuery>) =>
    navigate(libraryPath({ ...query, ...change, page: 1 }));

  return (
    <ShopLayout title="Video Library">
      <div className="mx-auto max-w-7xl">
        <h1 className="text-4xl font-bold text-white">Video Library</h1>
        <p className="mt-3 max-w-2xl text-zinc-400">
          Watch, download or buy performances from competitions, recitals and stage shows.
        </p>
        <form
          role="search"
          action="/videos"
          className="mt-8 flex flex-col gap-3 sm:flex-row"
          onSubmit={(event) => {
            event.preventDefault();
            navigate(libraryPath({ ...query, q: text.trim(), page: 1 }));
          }}
        >
          {/* Open before the app runs (a QR code's page on a venue's slow network): Enter submits the
              form itself, and text typed meanwhile is searched once the app runs (read at mount, above).
              The filters need the app; until it runs, the current ones ride along hidden. */}
          <SearchField
            ref={box}
            className="max-w-md"
            aria-label="Search videos"
            placeholder="Search: title, item number, dancer or studio"
            {...textInput}
          />
          {!inBrowser && query.showcase && <input type="hidden" name="showcase" value={query.showcase} />}
          {!inBrowser && query.price && <input type="hidden" name="price" value={query.price} />}
          <FilterSelect
            name="showcase"
            label="Showcase"
            className="sm:w-56"
            value={query.showcase ?? ''}
            onChange={(showcase) => filter({ showcase: showcase || undefined })}
            disabled={!inBrowser}
            anyLabel="All showcases"
            options={[
              ...(showcases.data ?? []).map((showcase) => ({ value: showcase.slug, label: showcase.name })),
              { value: MORE_VIDEOS_SLUG, label: 'More Videos' },
            ]}
          />
          <FilterSelect
            name="price"
            label="Price"
            className="sm:w-36"
            value={query.price ?? ''}
            onChange={(price) => filter({ price: (price || undefined) as LibraryPageQuery['price'] })}
            disabled={!inBrowser}
            anyLabel="Free and paid"
            options={[
              { value: 'free', label: 'Free' },
              { value: 'paid', label: 'Paid' },
            ]}
          />
        </form>
        {searching ? <SearchResults query={query} /> : <Shelves />}
      </div>
    </ShopLayout>
  );
}

function LoadFailed({ retry }: { retry: () => void }) {
  return (
    <div role="alert" className="mt-12 rounded-2xl border border-white/10 bg-stage-800/70 p-8 text-center">
      <p className="text-red-300">Failed to load videos. Please try again.</p>
      <Button variant="secondary" className="mt-4" onClick={retry}>
        <RotateCcw className="size-4" aria-hidden /> Try again
      </Button>
    </div>
  );
}

function Loading() {
  return (
    <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: 6 }, (_, index) => (
        <Skeleton key={index} className="h-80 rounded-2xl" />
      ))}
    </div>
  );
}

/** Each showcase's first row, with a link to all of its videos. */
function Shelves() {
  const library = useLibraryShelves(true);
  if (library.isError) return <LoadFailed retry={() => void library.refetch()} />;
  if (!library.data) return <Loading />;
  const { shelves } = library.data;
  if (shelves.length === 0) return <p className="mt-12 text-zinc-400">No videos yet. Check back soon.</p>;
  const featured = shelves.filter((shelf) => shelf.videos.length > 0);
  const listed = shelves.filter((shelf) => shelf.videos.length === 0);
  return (
    <>
      {featured.map((shelf, index) => {
        const slug = shelf.showcase?.slug ?? MORE_VIDEOS_SLUG;
        const name = shelf.showcase?.name ?? 'More Videos';
        return (
          <section key={slug} aria-labelledby={`showcase-${slug}`} className="mt-14">
            <h2 id={`showcase-${slug}`} className="text-2xl font-bold text-white">
              {name}
            </h2>
            {shelf.showcase?.description && (
              <p className="mt-1 text-zinc-400">{shelf.showcase.description}</p>
            )}
            <VideoGrid videos={shelf.videos} priority={index === 0 ? 3 : 0} />
            {shelf.videoCount > shelf.videos.length && (
              <Link
                href={`/videos/${encodeURIComponent(slug)}`}
                className="mt-5 inline-block font-semibold text-spotlight-300 hover:underline"
              >
                See all {shelf.videoCount} videos<span className="sr-only"> in {name}</span>
              </Link>
            )}
          </section>
        );
      })}
      {listed.length > 0 && (
        <section aria-labelledby="more-showcases" className="mt-14">
          <h2 id="more-showcases" className="text-2xl font-bold text-white">
            More showcases
          </h2>
          <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {listed.map((shelf) => {
              const slug = shelf.showcase?.slug ?? MORE_VIDEOS_SLUG;
              return (
                <li key={slug}>
                  <Link
                    href={`/videos/${encodeURIComponent(slug)}`}
                    className="block rounded-xl border border-white/10 bg-stage-800/70 px-4 py-3 text-white hover:bg-stage-700"
                  >
                    {shelf.showcase?.name ?? 'More Videos'}{' '}
                    <span className="text-sm text-zinc-400">({shelf.videoCount} videos)</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}

/**
 * Results of the search in the address, paged and counted, grouped like the library: the page's
 * videos under their showcases, in the showcases' order (videos without one last), ranked within each.
 */
function SearchResults({ query }: { query: LibraryPageQuery }) {
  const results = useSearchResults(query, true);
  const showcases = useShowcases();
  const inBrowser = useInBrowser();
  const words = query.q?.trim();
  // The programmes are searched in the browser only: their answers name children and are never kept.
  // Videos without a showcase have no programme.
  const wantsProgramme = Boolean(words && query.page === 1 && query.showcase !== MORE_VIDEOS_SLUG);
  const askProgramme = inBrowser && wantsProgramme;
  const programme = useProgrammeSearch(words ?? '', query.showcase, askProgramme);
  if (results.isError) return <LoadFailed retry={() => void results.refetch()} />;
  if (!results.data) return <Loading />;
  const { videos, total, page, pageCount } = results.data;
  const groups = [
    ...(showcases.data ?? []).map((showcase) => ({
      key: showcase.slug,
      name: showcase.name,
      videos: videos.filter((video) => video.showcaseId === showcase.id),
    })),
    {
      key: MORE_VIDEOS_SLUG,
      name: 'More Videos',
      videos: videos.filter((video) => !showcases.data?.some((showcase) => showcase.id === video.showcaseId)),
    },
  ].filter((group) => group.videos.length > 0);
  // Found in a programme (a dancer, a studio, an entry) though no video's title matches: say so, not "try a name".
  const inProgramme = askProgramme && (programme.data?.groups.length ?? 0) > 0;
  // Until the programmes have answered, suggest nothing: what the parent typed may well be there. The
  // server's page says the same, so a shared link does not flash "No videos match" before the browser asks.
  const awaitingProgramme = wantsProgramme && (!inBrowser || programme.isPending);
  const suggest = Boolean(words) && !inProgramme && !awaitingProgramme;
  return (
    <>
      {askProgramme && <ProgrammeResults result={programme} />}
      <p className="mt-10 text-lg font-semibold text-white" aria-live="polite">
        {total > 0
          ? `${total} ${total === 1 ? 'video' : 'videos'} found${words ? ` for “${words}”` : ''}`
          : awaitingProgramme
            ? `Looking for “${words}” in the competition programmes…`
            : inProgramme
              ? `No video titles match “${words}”: the programme results above lead to the routines.`
              : `0 videos found${words ? ` for “${words}”` : ''}`}
      </p>
      {videos.length === 0 ? (
        <div className="mt-6 text-zinc-400">
          {!words ? <p>No videos on this page.</p> : suggest && <p>No videos match “{words}”.</p>}
          {suggest && (
            <p className="mt-2">
              Try an entry number from the programme (like #47), a dancer&apos;s name, a studio, or fewer
              words.
            </p>
          )}
          {suggest && query.showcase && (
            <Link
              href={libraryPath({ ...query, showcase: undefined, page: 1 })}
              className="mt-3 block font-semibold text-spotlight-300 hover:underline"
            >
              Search every showcase for “{words}”
            </Link>
          )}
          <Link href="/videos" className="mt-3 inline-block font-semibold text-spotlight-300 hover:underline">
            Clear the search and see all videos
          </Link>
        </div>
      ) : (
        <>
          {groups.map((group, index) => (
            <section key={group.key} aria-labelledby={`results-${group.key}`} className="mt-10">
              <h2 id={`results-${group.key}`} className="text-2xl font-bold text-white">
                {group.name}
              </h2>
              <VideoGrid videos={group.videos} priority={index === 0 ? 3 : 0} />
            </section>
          ))}
          <Pagination
            page={page}
            pageCount={pageCount}
            href={(number) => libraryPath({ ...query, page: number })}
          />
        </>
      )}
    </>
  );
}
