// The video library's constants and addresses (decision 020), without zod: the public library pages
// import these, and their code must stay small. Schemas are in schemas/library.ts.

/** The longest search text accepted. */
export const SEARCH_TEXT_MAX = 200;
/** Videos a showcase shows on /videos before its "See all" link. */
export const SHELF_SIZE = 8;
/** Showcases /videos shows with their first row; the others are listed by name (page size limits). */
export const FEATURED_SHELVES = 6;
/** Videos on one page of a showcase or of search results. */
export const LIBRARY_PAGE_SIZE = 24;
/**
 * The deepest numbered page of a showcase or search (24,000 videos in): the pager never links further,
 * and a deeper `page` is refused (each page read skips every row before it).
 */
export const LIBRARY_MAX_PAGE = 1_000;
/** The slug of the page of videos without a showcase; no showcase is given it. */
export const MORE_VIDEOS_SLUG = 'more';

/** A showcase's address part: lower-case ASCII words joined by '-' ("Jazz & Tap 2026" -> "jazz-tap-2026"). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'showcase';
}

export interface LibraryFilters {
  q?: string;
  /** A showcase's id or slug, or "more" for videos without one. */
  showcase?: string;
  price?: 'free' | 'paid';
}

/** A numbered page of a showcase or of search results. */
export interface LibraryPageQuery extends LibraryFilters {
  page: number;
}

// The addresses the web app asks for these pages by (its query keys), which the api also uses to seed
// a rendered page's data: one spelling of each, parameters in one order.

/** A showcase's numbered page of videos. */
export const showcasePageUrl = (slug: string, page: number) =>
  `/api/showcases/${encodeURIComponent(slug)}/videos${page > 1 ? `?page=${page}` : ''}`;

/** The query string of a search: `q`, `showcase`, `price`, `page`, each only when set. */
export function searchParams(query: Partial<LibraryPageQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.showcase) params.set('showcase', query.showcase);
  if (query.price) params.set('price', query.price);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return params.toString();
}

export const searchPageUrl = (query: Partial<LibraryPageQuery>) =>
  `/api/library/search?${searchParams(query)}`;
