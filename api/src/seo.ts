import { business, findServicePage, hero, servicePages, type ServicePage } from '@app/shared/content';
import { imageSrcSet, imageUrl } from '@app/shared/images';
import type { Config } from '@app/shared/config';

// What crawlers and link previews see for each page, without running JavaScript (DESIGN.md section 1).

export interface PageHead {
  status: 200 | 404;
  title: string;
  description: string;
  /** Path of the canonical URL; none for pages that should not be indexed. */
  canonical?: string;
  noindex?: boolean;
  jsonLd: object[];
}

const homeTitle = `${business.name} | Dance & Performing Arts Photography and Videography NZ`;
const homeDescription =
  'Dance competition, stage show, recital and concert photography and videography across New Zealand. Photos within minutes, nothing to pay up front, galleries stored for 10 years.';

function localBusiness(config: Config, path = '/'): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': `${config.PUBLIC_URL}/#business`,
    name: business.name,
    description: homeDescription,
    url: `${config.PUBLIC_URL}${path}`,
    image: `${config.PUBLIC_URL}/api/images/hero/stage-hero.jpg`,
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

const privatePages = new Set(['/video-purchase-success', '/video-payment-options', '/video-payment-issue']);
const videoPage = /^\/video\/[^/]+\/(purchase|download)$/;

/** The head of a page the web app shows at `path`; unknown paths get home's head with 404 and noindex. */
export function pageHead(path: string, config: Config): PageHead {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (normalized === '/') {
    return {
      status: 200,
      title: homeTitle,
      description: homeDescription,
      canonical: '/',
      jsonLd: [localBusiness(config)],
    };
  }
  const service = findServicePage(normalized);
  if (service) {
    return {
      status: 200,
      title: service.title,
      description: service.description,
      canonical: service.path,
      jsonLd: [localBusiness(config, service.path), faqPage(service)],
    };
  }
  if (normalized === '/videos') {
    return {
      status: 200,
      title: `Video Library | ${business.name}`,
      description:
        'Watch, download or buy videos of dance competitions, recitals and stage shows, grouped by showcase.',
      canonical: '/videos',
      jsonLd: [],
    };
  }
  if (normalized === '/facebook-cover') {
    return {
      status: 200,
      title: `Cover Image | ${business.name}`,
      description: 'Preview and download the 1200x630 social media cover image.',
      canonical: '/facebook-cover',
      jsonLd: [],
    };
  }
  if (videoPage.test(normalized)) {
    return {
      status: 200,
      title: `Video | ${business.name}`,
      description: homeDescription,
      noindex: true,
      jsonLd: [],
    };
  }
  if (privatePages.has(normalized)) {
    return {
      status: 200,
      title: `Your Purchase | ${business.name}`,
      description: homeDescription,
      noindex: true,
      jsonLd: [],
    };
  }
  if (normalized === '/admin' || normalized.startsWith('/admin/')) {
    return {
      status: 200,
      title: `Admin | ${business.name}`,
      description: 'Owner area.',
      noindex: true,
      jsonLd: [],
    };
  }
  return { status: 404, title: homeTitle, description: homeDescription, noindex: true, jsonLd: [] };
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** JSON inside <script>: `<` escaped so no value can close the tag. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/** Runtime settings the browser may know; never a secret. */
export function publicConfig(config: Config) {
  return {
    appUrl: config.APP_URL,
    contactEmail: config.PUBLIC_CONTACT_EMAIL,
    analyticsDomain: config.ANALYTICS_DOMAIN,
    analyticsScriptUrl: config.ANALYTICS_SCRIPT_URL,
  };
}

export function renderHead(head: PageHead, config: Config): string {
  const image = `${config.PUBLIC_URL}/api/images/hero/stage-hero.jpg`;
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<meta name="keywords" content="${escapeHtml(findServicePage(head.canonical ?? '')?.keywords ?? 'dance photographer, dance videographer, performing arts photography, New Zealand')}" />`,
    head.noindex ? '<meta name="robots" content="noindex" />' : '',
    head.canonical ? `<link rel="canonical" href="${escapeHtml(config.PUBLIC_URL + head.canonical)}" />` : '',
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(business.name)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    head.canonical
      ? `<meta property="og:url" content="${escapeHtml(config.PUBLIC_URL + head.canonical)}" />`
      : '',
    `<meta property="og:image" content="${escapeHtml(image)}" />`,
    `<meta property="og:locale" content="en_NZ" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(head.description)}" />`,
    `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`),
    `<script id="public-config" type="application/json">${scriptJson(publicConfig(config))}</script>`,
    config.ANALYTICS_SCRIPT_URL && config.ANALYTICS_DOMAIN
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
    `Sitemap: ${config.PUBLIC_URL}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(config: Config): string {
  const paths = ['/', '/videos', ...servicePages.map((page) => page.path), '/facebook-cover'];
  const urls = paths
    .map((path) => `  <url><loc>${escapeHtml(config.PUBLIC_URL + path)}</loc></url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/**
 * A static first paint for pages whose opening is known without data (home and the service pages):
 * the same markup and classes the web app renders, so the words show before the JavaScript arrives.
 * React replaces it on start (createRoot, not hydration).
 */
export function renderShell(path: string): string {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (normalized === '/') {
    return `<section id="home" class="relative flex min-h-svh items-center justify-center overflow-hidden">
      <img src="${imageUrl(hero.image, 1280)}" srcset="${imageSrcSet(hero.image)}" sizes="100vw" alt="${escapeHtml(hero.imageAlt)}" fetchpriority="high" class="absolute inset-0 size-full object-cover" />
      <div class="absolute inset-0 bg-gradient-to-b from-stage-950/70 via-stage-950/40 to-stage-950"></div>
      <div class="relative mx-auto max-w-4xl px-6 pt-16 text-center">
        <p class="text-sm font-semibold tracking-[0.3em] text-spotlight-300 uppercase">${escapeHtml(hero.eyebrow)}</p>
        <h1 class="mt-4 text-4xl leading-tight font-bold text-white sm:text-6xl">${escapeHtml(hero.heading)}</h1>
        <p class="mx-auto mt-6 max-w-2xl text-lg text-zinc-200">${escapeHtml(hero.intro)}</p>
      </div>
    </section>`;
  }
  const service = findServicePage(normalized);
  if (service) {
    return `<main class="pt-16"><section class="relative overflow-hidden px-6 py-24 text-center"><div class="relative mx-auto max-w-3xl">
      <p class="text-sm font-semibold tracking-[0.3em] text-spotlight-300 uppercase">${escapeHtml(business.base)}</p>
      <h1 class="mt-4 text-4xl font-bold text-white sm:text-5xl">${escapeHtml(service.heading)}</h1>
      <p class="mt-6 text-lg text-zinc-300">${escapeHtml(service.intro)}</p>
    </div></section></main>`;
  }
  return '';
}
