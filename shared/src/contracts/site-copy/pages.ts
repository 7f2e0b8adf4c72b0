import { business } from './site.ts';
import { findServicePageHead, servicePageHeads } from './service-page-heads.ts';

// Each route's title, description and indexing rule. Browser-safe: the api puts them into the HTML it
// sends (with the JSON-LD and the absolute URLs), and the web app can set the same ones when it
// navigates, so a page's head is the same whichever way the visitor arrived.

export interface PageMeta {
  status: 200 | 404;
  title: string;
  description: string;
  keywords: string;
  /** Path of the canonical URL; absent where no page should be indexed under this address. */
  canonical?: string;
  noindex?: boolean;
  /** Which structured data the page carries. */
  kind: 'home' | 'service' | 'video' | 'plain';
}

const keywords =
  'dance photographer, dance videographer, dance competition photography, performing arts photography, stage show photography, New Zealand';

export const homeMeta: PageMeta = {
  status: 200,
  kind: 'home',
  title: `${business.name} | Dance & Performing Arts Photography and Videography NZ`,
  description:
    'Dance competition, stage show, recital and concert photography and videography across New Zealand. Photos within minutes, nothing to pay up front, galleries stored for 10 years.',
  keywords,
  canonical: '/',
};

/** The public routes a crawler should find (the sitemap); video pages are added from the database. */
export const indexablePaths = [
  '/',
  ...servicePageHeads.map((page) => page.path),
  '/videos',
  '/facebook-cover',
  '/privacy',
];

const videoPage = /^\/video\/([^/]+)\/(purchase|download)$/;
/** A dancer's or a studio's page: /dancers/<id>, /studios/<id>. */
export const performerPage = /^\/(dancers|studios)\/[^/]+$/;
/** A "tell me when it is online" link from an e-mail: /online-alerts/<id>/confirm or /unsubscribe. */
export const onlineAlertPage = /^\/online-alerts\/[^/]+\/(confirm|unsubscribe)$/;
const purchasePages = new Set(['/video-purchase-success', '/video-payment-options', '/video-payment-issue']);

/** Strips trailing slashes, so `/videos/` is `/videos`. */
export const normalizePath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') || '/' : path);

/** `{ id, kind }` when `path` is a video's purchase or download page. */
export function matchVideoPage(path: string): { id: string; kind: 'purchase' | 'download' } | undefined {
  const match = videoPage.exec(normalizePath(path));
  if (!match) return undefined;
  try {
    return { id: decodeURIComponent(match[1]!), kind: match[2] as 'purchase' | 'download' };
  } catch {
    return undefined;
  }
}

/** The head of the page at `path`. Unknown paths show home, with 404 and noindex. */
export function pageMeta(path: string): PageMeta {
  const normalized = normalizePath(path);
  if (normalized === '/') return homeMeta;
  const service = findServicePageHead(normalized);
  if (service) {
    return {
      status: 200,
      kind: 'service',
      title: service.title,
      description: service.description,
      keywords: service.keywords,
      canonical: service.path,
    };
  }
  if (/^\/videos(\/[^/]+)?$/.test(normalized)) {
    return {
      status: 200,
      kind: 'plain',
      title: `Video Library | ${business.name}`,
      description:
        'Watch, download or buy videos of dance competitions, recitals and stage shows from across New Zealand, grouped by showcase.',
      keywords: 'dance competition videos, recital videos, stage show videos, dance videos NZ',
      // A showcase's page: the api sends its own head; this is what navigating to it in the app sets.
      canonical: normalized,
    };
  }
  if (normalized === '/privacy') {
    return {
      status: 200,
      kind: 'plain',
      title: `Privacy | ${business.name}`,
      description:
        'What this site keeps about you and for how long, how studios keep showcases private, and how to have a video taken down.',
      keywords: 'privacy, take down a video, children on camera, New Zealand',
      canonical: '/privacy',
    };
  }
  if (normalized === '/facebook-cover') {
    return {
      status: 200,
      kind: 'plain',
      title: `Cover Image | ${business.name}`,
      description:
        'Preview and download the 1200x630 social media cover: Capturing Every Leap, Turn, and Triumph.',
      keywords,
      canonical: '/facebook-cover',
    };
  }
  const video = matchVideoPage(normalized);
  if (video) return videoPageMeta(undefined, video.id, video.kind);
  if (purchasePages.has(normalized)) {
    return {
      status: 200,
      kind: 'plain',
      title: `Your Purchase | ${business.name}`,
      description: homeMeta.description,
      keywords,
      noindex: true,
    };
  }
  if (normalized === '/cart') {
    return {
      status: 200,
      kind: 'plain',
      title: `Your Cart | ${business.name}`,
      description: 'The videos you chose, to pay for in one go.',
      keywords,
      noindex: true,
    };
  }
  if (normalized === '/my-videos' || normalized === '/my-videos/sign-in') {
    return {
      status: 200,
      kind: 'plain',
      title: `My Videos | ${business.name}`,
      description: 'Sign in with your e-mail to watch and download every video you have bought.',
      keywords,
      noindex: true,
    };
  }
  // A dancer's or studio's routines at one competition: children's names, so never indexed, never in a
  // sitemap, and the head names no one (link previews show it).
  if (performerPage.test(normalized)) {
    return {
      status: 200,
      kind: 'plain',
      title: `Routines | ${business.name}`,
      description: 'Every routine at this competition, with previews and prices.',
      keywords,
      noindex: true,
    };
  }
  // Confirming or cancelling a "tell me when it is online" e-mail: a link from a mail, for no one else.
  if (onlineAlertPage.test(normalized)) {
    return {
      status: 200,
      kind: 'plain',
      title: `Video alerts | ${business.name}`,
      description: 'Confirm or cancel an e-mail for when a video is online.',
      keywords,
      noindex: true,
    };
  }
  if (normalized === '/admin' || normalized.startsWith('/admin/')) {
    return {
      status: 200,
      kind: 'plain',
      title: `Admin | ${business.name}`,
      description: 'Owner area.',
      keywords,
      noindex: true,
    };
  }
  return { ...homeMeta, status: 404, canonical: undefined, noindex: true };
}

export interface VideoSummary {
  title: string;
  description: string;
  passwordProtected: boolean;
  /** Its showcase is marked "Show this showcase's videos in search engines". */
  showcaseIndexed?: boolean;
}

/** Up to `max` characters, cut at a word, for meta descriptions. */
export function summarize(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * A video's purchase or download page, with the video's own title for link previews. The purchase page
 * of an open video in a showcase shown in search engines is indexable (canonical to itself); other
 * videos, download pages and password-protected videos are not.
 * `video` undefined: not known (yet); `null`: no such video (404).
 */
export function videoPageMeta(
  video: VideoSummary | null | undefined,
  id: string,
  kind: 'purchase' | 'download',
): PageMeta {
  const purchasePath = `/video/${encodeURIComponent(id)}/purchase`;
  if (video === null) {
    return {
      status: 404,
      kind: 'plain',
      title: `Video Not Found | ${business.name}`,
      description: homeMeta.description,
      keywords,
      noindex: true,
    };
  }
  if (!video) {
    return {
      status: 200,
      kind: 'plain',
      title: `Video | ${business.name}`,
      description: homeMeta.description,
      keywords,
      noindex: true,
    };
  }
  // Performers are often children: only showcases the owner marked put their videos in search engines.
  const indexable = kind === 'purchase' && !video.passwordProtected && video.showcaseIndexed === true;
  return {
    status: 200,
    kind: 'video',
    title: `${video.title} | Videos | ${business.name}`,
    description: summarize(video.description) || homeMeta.description,
    keywords: 'dance videos, performance videos, New Zealand',
    canonical: indexable ? purchasePath : undefined,
    noindex: !indexable,
  };
}
