import { useQuery } from '@tanstack/react-query';
import { searchPageUrl, showcasePageUrl, type LibraryPageQuery } from '@app/shared/library';
import type {
  LibraryPage,
  LibraryShelves,
  PublicVideo,
  ShowcaseSummary,
  VideoToken,
} from '@app/shared/schemas';
import { api, isApiError } from '../../lib/api.ts';

export type Video = PublicVideo;

// Each query's key is its address, so a page the server rendered seeds it from its page data.
const byUrl = <T>(url: string, enabled = true) =>
  ({ queryKey: [url], queryFn: () => api.get<T>(url), enabled }) as const;

/**
 * Tells the api the video's page was opened, for the owner's conversion figures (counted once an hour
 * per address, nothing about the visitor kept). A lost visit matters to nobody: failures are ignored.
 */
export function recordVisit(videoId: string): void {
  api.post(`/api/videos/${encodeURIComponent(videoId)}/visit`).catch(() => {});
}

export const useShowcases = () => useQuery(byUrl<ShowcaseSummary[]>('/api/showcases'));
/** What /videos shows: each showcase's first row. */
export const useLibraryShelves = (enabled: boolean) =>
  useQuery(byUrl<LibraryShelves>('/api/library', enabled));
export const useShowcasePage = (slug: string, page: number) =>
  useQuery(byUrl<LibraryPage>(showcasePageUrl(slug, page)));
export const useSearchResults = (query: LibraryPageQuery, enabled: boolean) =>
  // The previous results stay on screen while the next arrive, instead of a flash of skeletons.
  useQuery({ ...byUrl<LibraryPage>(searchPageUrl(query), enabled), placeholderData: (previous) => previous });
/**
 * `sessionId`: the buyer's checkout, which still opens a video the owner has hidden since. `token`: a
 * protected video's password token, which adds its poster frame and preview clip (behind the token).
 */
export const useVideo = (id: string, sessionId?: string, token?: string) =>
  useQuery({
    queryKey: ['/api/videos', id, sessionId, token],
    queryFn: () => {
      const query = new URLSearchParams({
        ...(sessionId && { session_id: sessionId }),
        ...(token && { token }),
      }).toString();
      return api.get<Video>(`/api/videos/${encodeURIComponent(id)}${query ? `?${query}` : ''}`);
    },
    enabled: id !== '',
  });

/** What a paid video's page says instead of selling it: nothing while it is on sale. */
export function availabilityNotice(video: Pick<Video, 'availability'>): string | null {
  if (video.availability === 'unavailable') return 'This video is not available.';
  if (video.availability === 'processing')
    return 'This video is being prepared and can be bought once it is ready. Please check back soon.';
  return null;
}

/** A preview under /api/ is used as is; anything else is a storage key for the preview route. */
export function previewSrc(previewUrl: string | null): string | undefined {
  if (!previewUrl) return undefined;
  return previewUrl.startsWith('/api/') ? previewUrl : `/api/video-preview/${encodeURIComponent(previewUrl)}`;
}

export const isFree = (video: Pick<Video, 'priceCents'>) => video.priceCents === 0;

export const downloadPath = (videoId: string, sessionId?: string) =>
  `/video/${encodeURIComponent(videoId)}/download${sessionId ? `?session_id=${encodeURIComponent(sessionId)}` : ''}`;
export const purchasePath = (videoId: string) => `/video/${encodeURIComponent(videoId)}/purchase`;
/** `tabClosed`: the payment tab was closed (or never opened) before the payment page arrived. */
export const paymentOptionsPath = (
  videoId: string,
  options: { unavailable?: boolean; tabClosed?: boolean } = {},
) =>
  `/video-payment-options?videoId=${encodeURIComponent(videoId)}${options.unavailable ? '&unavailable=1' : ''}${options.tabClosed ? '&tab=closed' : ''}`;

// Session storage can be switched off (or full); the shop then simply forgets between pages.
function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Not remembered: the visitor is asked again.
  }
}

const VIDEO_ID_KEY = 'purchaseVideoId';
const tokenKey = (videoId: string) => `videoToken:${videoId}`;
/** A token this close to expiry is not offered any more (the request would race its expiry). */
const TOKEN_MARGIN_MS = 60_000;

/**
 * What the shop keeps in session storage across its pages and the payment tab: the chosen video and,
 * per protected video, the token its password earned.
 */
export const purchaseStorage = {
  save(videoId: string, token?: VideoToken) {
    write(VIDEO_ID_KEY, videoId);
    if (token) write(tokenKey(videoId), JSON.stringify(token));
  },
  videoId: () => read(VIDEO_ID_KEY) ?? undefined,
  token(videoId: string): string | undefined {
    const raw = read(tokenKey(videoId));
    if (!raw) return undefined;
    try {
      const saved = JSON.parse(raw) as Partial<VideoToken>;
      const expires = Date.parse(saved.expiresAt ?? '');
      if (typeof saved.token === 'string' && expires - TOKEN_MARGIN_MS > Date.now()) return saved.token;
    } catch {
      // Unreadable: dropped below.
    }
    write(tokenKey(videoId), null);
    return undefined;
  },
  forgetToken: (videoId: string) => write(tokenKey(videoId), null),
};

/** Trades the video's password for a token and keeps it for this visit (the other shop pages reuse it). */
export async function verifyVideoPassword(videoId: string, password: string): Promise<string> {
  const result = await api.post<VideoToken>('/api/verify-video-password', { videoId, password });
  purchaseStorage.save(videoId, result);
  return result.token;
}

/** The api's answer to a wrong password (anything else is a failure to report, not the visitor's fault). */
export const isWrongPassword = (error: unknown) => isApiError(error, 'unauthorized');
