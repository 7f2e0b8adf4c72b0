import {
  business,
  hero,
  indexablePaths,
  pageMeta,
  videoPageMeta,
  type PageMeta,
} from '@app/shared/site-copy';
import { findServicePage, type ServicePage } from '@app/shared/site-copy/service-pages';
import { imageUrl } from '@app/shared/images';
import type { Config } from '@app/shared/config';
import type { PublicConfig } from '@app/shared/schemas';

// What crawlers and link previews see for each page, without running JavaScript.
// Titles and descriptions come from @app/shared/site-copy (pageMeta), which the web app shares.

export interface PageHead extends PageMeta {
  jsonLd: object[];
  /** Absolute URL of the sharing picture. */
  image: string;
  imageAlt: string;
  /** `<link>`s beside the canonical: a numbered page's prev and next. */
  links?: Array<{ rel: string; href: string }>;
}

/** What a video page's head needs from the videos table. */
export interface VideoForHead {
  id: string;
  title: string;
  description: string;
  previewUrl: string | null;
  passwordProtected: boolean;
  createdAt: Date;
}

const absolute = (config: Config, path: string) => `${config.PUBLIC_URL}${path}`;
const heroImage = (config: Config) => absolute(config, imageUrl(hero.image, 1280));

function localBusiness(config: Config, path = '/'): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': absolute(config, '/#business'),
    name: business.name,
    description: pageMeta('/').description,
    url: absolute(config, path),
    image: heroImage(config),
    email: config.PUBLIC_CONTACT_EMAIL,
    priceRange: business.priceRange,
    address: {
      '@type': 'PostalAddress',
      addressLocality: 'Christchurch',
      addressRegion: 'Canterbury',
      addressCountry: 'NZ',
    },
    areaServed: business.regionsServed.map((name) => ({ '@type': 'Place', name })),
  };
}

function faqPage(page: ServicePage): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: page.faqs.map((faq) => ({
      '@type': 'Question',
      name: faq.question,
      acceptedAnswer: { '@type': 'Answer', text: faq.answer },
    })),
  };
}

function webPage(meta: PageMeta, config: Config): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    name: meta.title,
    description: meta.description,
    url: absolute(config, meta.canonical ?? '/'),
    inLanguage: 'en-NZ',
    publisher: { '@id': absolute(config, '/#business') },
  };
}

/** The head of the page the web app shows at `path`; unknown paths get home's head with 404 and noindex. */
export function pageHead(path: string, config: Config): PageHead {
  return headFor(pageMeta(path), config);
}

function headFor(meta: PageMeta, config: Config, extra: Partial<PageHead> = {}): PageHead {
  const service = meta.kind === 'service' ? findServicePage(meta.canonical ?? '') : undefined;
  const jsonLd =
    meta.status !== 200 || meta.noindex
      ? []
      : meta.kind === 'home'
        ? [localBusiness(config)]
        : service
          ? [localBusiness(config, service.path), faqPage(service)]
          : [webPage(meta, config)];
  return { ...meta, jsonLd, image: heroImage(config), imageAlt: hero.imageAlt, ...extra };
}

/**
 * A video's purchase or download page, named after the video so a shared link previews it.
 * `video` null: no such video (404); undefined: it could not be looked up (generic head).
 */
export function videoHead(
  video: VideoForHead | null | undefined,
  id: string,
  kind: 'purchase' | 'download',
  config: Config,
): PageHead {
  const meta = videoPageMeta(video, id, kind);
  if (!video || meta.kind !== 'video') return headFor(meta, config);
  // Only our own pictures: /api/images/ is open to link-preview crawlers, the rest of /api/ is not.
  const image = video.previewUrl?.startsWith('/api/images/')
    ? absolute(config, imageUrl(video.previewUrl, 1280))
    : heroImage(config);
  const jsonLd = meta.noindex
    ? []
    : [
        {
          '@context': 'https://schema.org',
          '@type': 'VideoObject',
          name: video.title,
          description: meta.description,
          thumbnailUrl: image,
          uploadDate: video.createdAt.toISOString(),
          url: absolute(config, meta.canonical ?? ''),
          publisher: { '@id': absolute(config, '/#business') },
        },
      ];
  return { ...meta, jsonLd, image, imageAlt: video.title };
}

export const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** JSON inside <script>: `<` escaped so no value can close the tag. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/** Runtime settings the browser may know; never a secret. */
export function publicConfig(config: Config): PublicConfig {
  return {
    appUrl: config.APP_URL,
    contactEmail: config.PUBLIC_CONTACT_EMAIL,
    analyticsDomain: config.ANALYTICS_DOMAIN,
    analyticsScriptUrl: config.ANALYTICS_SCRIPT_URL,
    retention: {
      enquiryDays: config.RETENTION_ENQUIRY_DAYS,
      jobRecordDays: config.RETENTION_JOB_RECORD_DAYS,
    },
  };
}

/**
 * The page's head tags; `pageData`: the lists a rendered page shows, by route, for the app to start
 * from (web/src/main.tsx). `analytics: false` leaves the analytics script out: the page's address holds
 * a bearer value (the script reports the full address of every page view).
 */
export function renderHead(
  head: PageHead,
  config: Config,
  pageData?: Record<string, unknown>,
  { analytics = true } = {},
): string {
  const url = head.canonical ? absolute(config, head.canonical) : undefined;
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<meta name="keywords" content="${escapeHtml(head.keywords)}" />`,
    head.noindex ? '<meta name="robots" content="noindex" />' : '',
    url ? `<link rel="canonical" href="${escapeHtml(url)}" />` : '',
    ...(head.links ?? []).map((link) => `<link rel="${link.rel}" href="${escapeHtml(link.href)}" />`),
    `<meta property="og:type" content="${head.kind === 'video' ? 'video.other' : 'website'}" />`,
    `<meta property="og:site_name" content="${escapeHtml(business.name)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    url ? `<meta property="og:url" content="${escapeHtml(url)}" />` : '',
    `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
    `<meta property="og:image:alt" content="${escapeHtml(head.imageAlt)}" />`,
    `<meta property="og:locale" content="en_NZ" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(head.description)}" />`,
    `<meta name="twitter:image" content="${escapeHtml(head.image)}" />`,
    `<meta name="twitter:image:alt" content="${escapeHtml(head.imageAlt)}" />`,
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`),
    `<script id="public-config" type="application/json">${scriptJson(publicConfig(config))}</script>`,
    pageData ? `<script id="page-data" type="application/json">${scriptJson(pageData)}</script>` : '',
    analytics && config.ANALYTICS_SCRIPT_URL && config.ANALYTICS_DOMAIN
      ? `<script defer data-domain="${escapeHtml(config.ANALYTICS_DOMAIN)}" src="${escapeHtml(config.ANALYTICS_SCRIPT_URL)}"></script>`
      : '',
  ];
  return tags.filter(Boolean).join('\n    ');
}

export function robotsTxt(config: Config): string {
  return [
    'User-agent: *',
    'Allow: /api/images/',
    'Disallow: /admin',
    'Disallow: /api/',
    '',
    `Sitemap: ${absolute(config, '/sitemap.xml')}`,
    '',
  ].join('\n');
}

/** The most URLs one sitemap file may list (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** /sitemap.xml: the index of the sitemap files, `/sitemaps/pages.xml` and `videoFiles` of videos. */
export function sitemapIndexXml(config: Config, videoFiles: number): string {
  const files = [
    '/sitemaps/pages.xml',
    ...Array.from({ length: videoFiles }, (_, index) => `/sitemaps/videos-${index + 1}.xml`),
  ];
  const entries = files
    .map((path) => `  <sitemap><loc>${escapeHtml(absolute(config, path))}</loc></sitemap>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}

/** One sitemap file: the public routes and showcase pages, or a part of the indexable video pages. */
export function sitemapXml(config: Config, paths: string[]): string {
  const urls = paths
    .map((path) => `  <url><loc>${escapeHtml(absolute(config, path))}</loc></url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export const sitemapPagePaths = (showcasePaths: string[]) => [...indexablePaths, ...showcasePaths];
