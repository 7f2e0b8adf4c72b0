import { business, homeMeta, normalizePath, summarize } from '@app/shared/site-copy';
import type { Config } from '@app/shared/config';
import type { Db } from '@app/shared/db';
import { imageUrl } from '@app/shared/images';
import {
  libraryPageQuerySchema,
  MORE_VIDEOS_SLUG,
  searchPageUrl,
  searchParams,
  showcasePageUrl,
  type LibraryPage,
  type LibraryPageQuery,
  type PublicVideo,
} from '@app/shared/schemas';
import {
  findShowcaseBySlug,
  libraryShelves,
  searchPage,
  showcasePage,
  showcaseSummaries,
} from '../features/videos/library.service.ts';
import type { LibraryMiss } from '../features/search-misses/search-miss-log.ts';
import { pageHead, type PageHead } from './seo.ts';

// The video library's pages (decision 020): /videos (each showcase's first row, or
// search results with ?q=), /videos/<slug> (a showcase's numbered pages) and /videos/more (videos
// without a showcase). Each goes out rendered with the lists it shows (web.ts).

export type LibraryPageAnswer =
  | {
      kind: 'page';
      head: PageHead;
      /** The lists the page shows, by the routes the web app asks them from. */
      lists: Record<string, unknown>;
      /** The path and query the app renders. */
      location: string;
    }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

const MORE_VIDEOS_NAME = 'More Videos';
const absolute = (config: Config, path: string) => `${config.PUBLIC_URL}${path}`;
export const showcasePath = (slug: string, page = 1) =>
  `/videos/${encodeURIComponent(slug)}${page > 1 ? `?page=${page}` : ''}`;

/** `{ slug }` when `path` is a showcase page (/videos/<slug>). */
export function matchShowcasePage(path: string): { slug: string } | undefined {
  const match = /^\/videos\/([^/]+)$/.exec(normalizePath(path));
  if (!match) return undefined;
  try {
    return { slug: decodeURIComponent(match[1]!) };
  } catch {
    return undefined;
  }
}

/** A page's picture for link previews: the first of its videos' pictures that is our own. */
function sharingImage(
  config: Config,
  videos: PublicVideo[],
  fallback: PageHead,
): Pick<PageHead, 'image' | 'imageAlt'> {
  const video = videos.find((item) => item.previewUrl?.startsWith('/api/images/'));
  return video?.previewUrl
    ? { image: absolute(config, imageUrl(video.previewUrl, 1280)), imageAlt: video.title }
    : { image: fallback.image, imageAlt: fallback.imageAlt };
}

function itemList(config: Config, url: string, name: string, description: string, page: LibraryPage) {
  return {
    '@context': 'https://schema.org',
    '@type': 'CollectionPage',
    name,
    description,
    url: absolute(config, url),
    inLanguage: 'en-NZ',
    publisher: { '@id': absolute(config, '/#business') },
    mainEntity: {
      '@type': 'ItemList',
      numberOfItems: page.total,
      itemListElement: page.videos.map((video, index) => ({
        '@type': 'ListItem',
        position: (page.page - 1) * page.videos.length + index + 1,
        name: video.title,
      })),
    },
  };
}

/** Previous and next page links (rel=prev/next) for numbered pages. */
function pageLinks(config: Config, page: LibraryPage, pathOf: (page: number) => string) {
  return [
    ...(page.page > 1 && page.page <= page.pageCount
      ? [{ rel: 'prev', href: absolute(config, pathOf(page.page - 1)) }]
      : []),
    ...(page.page < page.pageCount ? [{ rel: 'next', href: absolute(config, pathOf(page.page + 1)) }] : []),
  ];
}

/** The search page's own address, parameters in one order. */
export function searchPath(query: LibraryPageQuery): string {
  const search = searchParams(query);
  return search ? `/videos?${search}` : '/videos';
}

async function showcasePageAnswer(
  db: Db,
  config: Config,
  slug: string,
  query: URLSearchParams,
): Promise<LibraryPageAnswer> {
  const parsed = libraryPageQuerySchema
    .pick({ page: true })
    .safeParse({ page: query.get('page') ?? undefined });
  const page = parsed.success ? parsed.data.page : 1;
  const found = await findShowcaseBySlug(db, slug.slice(0, 200));
  if (found.kind === 'missing') return { kind: 'not-found' };
  if (found.kind === 'moved') return { kind: 'redirect', location: showcasePath(found.slug, page) };
  if (!parsed.success) return { kind: 'redirect', location: showcasePath(slug) };
  const { showcase } = found;
  if (showcase?.privacy === 'code') {
    // Behind an access code: the page goes out without its lists, named after nothing; the browser
    // asks for them with its cookie and shows the code form when refused (docs/decisions/030).
    const base = pageHead('/videos', config);
    return {
      kind: 'page',
      location: showcasePath(showcase.slug, page),
      lists: {},
      head: {
        ...base,
        title: `Private showcase | Videos | ${business.name}`,
        canonical: undefined,
        noindex: true,
        jsonLd: [],
      },
    };
  }
  const unlisted = showcase?.privacy === 'unlisted';
  const result = await showcasePage(db, showcase, { page });
  const currentSlug = showcase?.slug ?? MORE_VIDEOS_SLUG;
  const path = showcasePath(currentSlug, page);
  const name = showcase?.name ?? MORE_VIDEOS_NAME;
  const description =
    summarize(showcase?.description ?? '') ||
    `${result.total} dance and performance ${result.total === 1 ? 'video' : 'videos'} to watch, download or buy.`;
  const pastTheEnd = page > result.pageCount;
  const base = pageHead('/videos', config);
  const title = `${name}${page > 1 ? ` (page ${page})` : ''} | Videos | ${business.name}`;
  return {
    kind: 'page',
    location: path,
    lists: { [showcasePageUrl(currentSlug, page)]: result },
    head: {
      ...base,
      title,
      description,
      keywords: `${name}, dance videos, performance videos, New Zealand`,
      canonical: pastTheEnd ? undefined : path,
      // An unlisted showcase is reached by its link only: never in search engines.
      noindex: pastTheEnd || unlisted,
      jsonLd: pastTheEnd || unlisted ? [] : [itemList(config, path, name, description, result)],
      links: pageLinks(config, result, (number) => showcasePath(currentSlug, number)),
      ...sharingImage(config, result.videos, base),
    },
  };
}

/**
 * The page for a library address, or undefined when `path` is not one. Bad query values on an HTML
 * page send the reader to the nearest good address instead of an error page.
 */
export async function libraryPage(
  db: Db,
  config: Config,
  path: string,
  query: URLSearchParams,
  logMiss?: (miss: LibraryMiss) => void,
): Promise<LibraryPageAnswer | undefined> {
  const showcase = matchShowcasePage(path);
  if (showcase) return showcasePageAnswer(db, config, showcase.slug, query);
  if (normalizePath(path) !== '/videos') return undefined;

  const parsed = libraryPageQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) return { kind: 'redirect', location: '/videos' };
  const search = parsed.data;
  const searching = Boolean(search.q?.trim() || search.showcase || search.price || search.page > 1);
  const base = pageHead('/videos', config);
  if (!searching) {
    return {
      kind: 'page',
      location: '/videos',
      lists: { '/api/library': await libraryShelves(db), '/api/showcases': await showcaseSummaries(db) },
      head: base,
    };
  }
  const result = await searchPage(db, search, logMiss && ((where) => logMiss({ ...where, text: search.q })));
  const location = searchPath(search);
  const words = search.q?.trim() ?? '';
  return {
    kind: 'page',
    location,
    lists: { [searchPageUrl(search)]: result, '/api/showcases': await showcaseSummaries(db) },
    head: {
      ...base,
      title: `${words ? `“${words.slice(0, 60)}” in the` : 'Search the'} Video Library | ${business.name}`,
      description:
        `${result.total} ${result.total === 1 ? 'video' : 'videos'} found${words ? ` for “${words.slice(0, 60)}”` : ''}. ${homeMeta.description}`.slice(
          0,
          300,
        ),
      canonical: location,
      // What visitors type is often a child's name: a search's page is never in a search engine.
      noindex: words !== '',
      jsonLd: [],
      links: pageLinks(config, result, (page) => searchPath({ ...search, page })),
    },
  };
}
