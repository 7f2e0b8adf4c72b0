import { readdirSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { business, hero, pageMeta } from '@app/shared/site-copy';
import { formatEventDate } from '@app/shared/format';
import { testimonials, videos } from '@app/shared/db';
import { servicePages } from '@app/shared/site-copy/service-pages';
import { createShowcase, createVideo, createEvent, processedMedia } from '../../../test/support/factories.ts';
import { webDist } from './web.ts';
import { useTestWorld } from '../../../test/support/world.ts';

// Pages as crawlers and link previews see them: no JavaScript, only the HTML the api sends.

const SECRETS = {
  SESSION_SECRET: 'web-test-session-secret-0123456789',
  STRIPE_SECRET_KEY: 'sk_test_webtest_secret_value',
  STRIPE_WEBHOOK_SECRET: 'whsec_webtest_secret_value',
  SMTP_URL: 'smtp://mailuser:mailpassword@127.0.0.1:2525',
  METRICS_TOKEN: 'metrics-token-webtest-value',
};

const { env, api } = useTestWorld({
  api: true,
  env: {
    ...SECRETS,
    PUBLIC_URL: 'https://stagelight.example.nz',
    PUBLIC_CONTACT_EMAIL: 'hello@stagelight.example.nz',
    APP_URL: 'https://app.stagelight.example.nz',
  },
});

const SITE = 'https://stagelight.example.nz';

const decode = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** The head tags a crawler reads. */
function readHead(html: string) {
  const meta = (attribute: 'name' | 'property', key: string) => {
    const found = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html);
    return found ? decode(found[1]!) : undefined;
  };
  return {
    titles: [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => decode(match[1]!)),
    description: meta('name', 'description'),
    keywords: meta('name', 'keywords'),
    robots: meta('name', 'robots'),
    canonical: /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1],
    og: (key: string) => meta('property', `og:${key}`),
    twitter: (key: string) => meta('name', `twitter:${key}`),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1]!) as Record<string, any>,
    ),
    publicConfig: JSON.parse(
      /<script id="public-config" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as Record<string, unknown> | null,
  };
}

const publicRoutes = [
  '/',
  ...servicePages.map((page) => page.path),
  '/videos',
  '/facebook-cover',
  '/privacy',
];

describe('every public route', () => {
  it.each(publicRoutes)(
    '%s carries its own title, description, canonical, social tags and JSON-LD',
    async (path) => {
      const response = await request(api.app)
        .get(path)
        .expect(200)
        .expect('Content-Type', /text\/html/);
      const head = readHead(response.text);
      const expected = pageMeta(path);
      expect(head.titles).toEqual([expected.title]);
      expect(head.description).toBe(expected.description);
      expect(head.description!.length).toBeGreaterThan(50);
      expect(head.description!.length).toBeLessThanOrEqual(200);
      expect(head.keywords).toBeTruthy();
      expect(head.canonical).toBe(`${SITE}${path}`);
      expect(head.robots).toBeUndefined();
      expect(head.og('title')).toBe(expected.title);
      expect(head.og('description')).toBe(expected.description);
      expect(head.og('url')).toBe(`${SITE}${path}`);
      expect(head.og('type')).toBe('website');
      expect(head.og('image')).toMatch(new RegExp(`^${SITE}/api/images/`));
      expect(head.twitter('card')).toBe('summary_large_image');
      expect(head.twitter('title')).toBe(expected.title);
      expect(head.jsonLd.length).toBeGreaterThan(0);
      for (const data of head.jsonLd) {
        expect(data['@context']).toBe('https://schema.org');
        expect(data['@type']).toEqual(expect.any(String));
      }
      // The web app's marker is replaced, not left behind.
      expect(response.text).not.toContain('<!--app-head-->');
    },
  );

  it('gives every route a different title and description', async () => {
    const heads = await Promise.all(
      publicRoutes.map(async (path) => readHead((await request(api.app).get(path)).text)),
    );
    expect(new Set(heads.map((head) => head.titles[0])).size).toBe(publicRoutes.length);
    expect(new Set(heads.map((head) => head.description)).size).toBe(publicRoutes.length);
  });

  it('treats a trailing slash as the same page', async () => {
    const head = readHead((await request(api.app).get('/videos/').expect(200)).text);
    expect(head.canonical).toBe(`${SITE}/videos`);
  });
});

describe('structured data', () => {
  it('describes the business on the home page: price range $$ and the six regions served', async () => {
    const { jsonLd } = readHead((await request(api.app).get('/').expect(200)).text);
    const business_ = jsonLd.find((data) => data['@type'] === 'LocalBusiness');
    expect(business_).toMatchObject({
      name: business.name,
      priceRange: '$$',
      url: `${SITE}/`,
      email: 'hello@stagelight.example.nz',
      address: { addressCountry: 'NZ' },
    });
    expect(business_!.areaServed.map((place: { name: string }) => place.name)).toEqual([
      'Christchurch',
      'Auckland',
      'Wellington',
      'Blenheim',
      'Canterbury',
      'Marlborough',
    ]);
  });

  it.each(servicePages.map((page) => [page.path, page] as const))(
    '%s has LocalBusiness and an FAQPage with the very questions and answers the page shows',
    async (path, page) => {
      const { jsonLd } = readHead((await request(api.app).get(path).expect(200)).text);
      expect(jsonLd.map((data) => data['@type'])).toEqual(['LocalBusiness', 'FAQPage']);
      expect(jsonLd[0]).toMatchObject({ priceRange: '$$', url: `${SITE}${path}` });
      expect(page.faqs).toHaveLength(5);
      expect(jsonLd[1]!.mainEntity).toEqual(
        page.faqs.map((faq) => ({
          '@type': 'Question',
          name: faq.question,
          acceptedAnswer: { '@type': 'Answer', text: faq.answer },
        })),
      );
    },
  );

  it('cannot be broken out of: a value with </script> stays inside the JSON', async () => {
    const video = await createVideo(env.database.db, {
      showcaseId: (await createShowcase(env.database.db, { showVideosInSearchEngines: true })).id,
      title: 'Finale </script><script>alert(1)</script>',
      description: 'Closing number "with quotes" & ampersands',
    });
    const response = await request(api.app).get(`/video/${video.id}/purchase`).expect(200);
    expect(response.text).not.toContain('<script>alert(1)');
    const head = readHead(response.text);
    expect(head.titles[0]).toContain('Finale </script><script>alert(1)</script>');
    expect(head.jsonLd[0]!.name).toBe('Finale </script><script>alert(1)</script>');
  });
});

describe('video pages', () => {
  it('names the purchase page after the video, with its description, preview and a VideoObject', async () => {
    const video = await createVideo(env.database.db, {
      title: 'Junior Jazz Troupe — Regional Finals',
      description: 'The full junior jazz troupe routine from the regional finals in Christchurch.',
      previewUrl: '/api/images/portfolio/group-01.jpg',
      // Only showcases the owner shows in search engines put their videos there.
      showcaseId: (await createShowcase(env.database.db, { showVideosInSearchEngines: true })).id,
    });
    const path = `/video/${video.id}/purchase`;
    const head = readHead((await request(api.app).get(path).expect(200)).text);
    expect(head.titles[0]).toBe(`Junior Jazz Troupe — Regional Finals | Videos | ${business.name}`);
    expect(head.description).toBe(video.description);
    expect(head.canonical).toBe(`${SITE}${path}`);
    expect(head.robots).toBeUndefined();
    expect(head.og('type')).toBe('video.other');
    expect(head.og('image')).toBe(`${SITE}/api/images/portfolio/group-01.jpg?w=1280`);
    expect(head.jsonLd).toEqual([
      expect.objectContaining({
        '@type': 'VideoObject',
        name: video.title,
        thumbnailUrl: `${SITE}/api/images/portfolio/group-01.jpg?w=1280`,
        uploadDate: video.createdAt.toISOString(),
      }),
    ]);
  });

  it('keeps password-protected videos and download pages out of search results', async () => {
    const secret = await createVideo(env.database.db, {
      title: 'Studio showcase (families only)',
      passwordProtected: true,
      passwordHash: 'not-a-real-hash',
    });
    const protectedHead = readHead(
      (await request(api.app).get(`/video/${secret.id}/purchase`).expect(200)).text,
    );
    expect(protectedHead.robots).toBe('noindex');
    expect(protectedHead.canonical).toBeUndefined();
    expect(protectedHead.jsonLd).toEqual([]);

    const open = await createVideo(env.database.db);
    const download = readHead(
      (await request(api.app).get(`/video/${open.id}/download?session_id=cs_test_1`).expect(200)).text,
    );
    expect(download.robots).toBe('noindex');
    expect(download.titles[0]).toContain(open.title);
  });

  it("names nothing of a hidden video, yet opens its page (200) for the buyer's link", async () => {
    const hidden = await createVideo(env.database.db, { title: 'Withdrawn Duet', published: false });
    for (const page of [
      `/video/${hidden.id}/purchase`,
      `/video/${hidden.id}/download?session_id=cs_test_2`,
    ]) {
      const response = await request(api.app).get(page).expect(200);
      const head = readHead(response.text);
      expect(head.robots).toBe('noindex');
      expect(response.text).not.toContain('Withdrawn Duet');
    }
  });

  it('answers an unknown video with 404 and noindex', async () => {
    const head = readHead((await request(api.app).get('/video/no-such-video/purchase').expect(404)).text);
    expect(head.robots).toBe('noindex');
    expect(head.titles[0]).toBe(`Video Not Found | ${business.name}`);
    await request(api.app)
      .get(`/video/${'x'.repeat(300)}/purchase`)
      .expect(404);
  });
});

describe('pages that must not be indexed', () => {
  it('answers an unknown path with the home page, status 404 and noindex', async () => {
    for (const path of ['/no/such/page', '/dance-photographer/extra', '/index.php', '/videos/x']) {
      const response = await request(api.app).get(path).expect(404);
      const head = readHead(response.text);
      expect(head.robots, path).toBe('noindex');
      expect(head.canonical, path).toBeUndefined();
      expect(head.titles[0]).toBe(pageMeta('/').title);
      expect(response.text).toContain('<div id="root">');
    }
  });

  it('marks the admin area, the purchase result pages and search results noindex', async () => {
    for (const path of [
      '/admin',
      '/admin/contacts',
      '/admin/videos',
      '/video-purchase-success?session_id=cs_1',
      '/video-payment-options',
      // A search's words are often a child's name.
      '/videos?q=aroha+smith',
      '/videos?q=47&showcase=more',
    ]) {
      const head = readHead((await request(api.app).get(path).expect(200)).text);
      expect(head.robots, path).toBe('noindex');
      expect(head.jsonLd, path).toEqual([]);
    }
  });

  it('keeps /api paths JSON: an unknown api path is a JSON 404, not the page', async () => {
    const response = await request(api.app).get('/api/no-such-thing').expect(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });
});

describe('public runtime config', () => {
  it('holds the public settings and nothing else', async () => {
    const response = await request(api.app).get('/').expect(200);
    const { publicConfig } = readHead(response.text);
    expect(publicConfig).toEqual({
      appUrl: 'https://app.stagelight.example.nz',
      contactEmail: 'hello@stagelight.example.nz',
      // The privacy page states them (issue 28).
      retention: { enquiryDays: 730, jobRecordDays: 30 },
    });
  });

  it('never puts a secret in any page', async () => {
    for (const path of [...publicRoutes, '/admin', '/no/such/page']) {
      const { text } = await request(api.app).get(path);
      for (const [name, value] of Object.entries(SECRETS))
        expect(text, `${name} in ${path}`).not.toContain(value);
      expect(text).not.toContain('mailpassword');
      expect(text).not.toContain(env.config.DATABASE_URL);
      expect(text).not.toContain(env.config.OWNER_EMAIL);
    }
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('keeps crawlers out of /admin and /api, but lets link previews fetch /api/images/', async () => {
    const response = await request(api.app)
      .get('/robots.txt')
      .expect(200)
      .expect('Content-Type', /text\/plain/);
    const lines = response.text.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /admin');
    expect(lines).toContain('Disallow: /api/');
    expect(lines).toContain('Allow: /api/images/');
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it('lists every public route and the purchase page of each open video, never a protected one', async () => {
    const shown = await createShowcase(env.database.db, { showVideosInSearchEngines: true });
    const open = await createVideo(env.database.db, { title: 'Sitemap open video', showcaseId: shown.id });
    const closed = await createVideo(env.database.db, {
      title: 'Sitemap protected video',
      showcaseId: shown.id,
      passwordProtected: true,
      passwordHash: 'not-a-real-hash',
    });
    const index = await request(api.app).get('/sitemap.xml').expect(200).expect('Content-Type', /xml/);
    expect(index.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    const files = [...index.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
    expect(files).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/videos-1.xml`]);
    const locations: string[] = [];
    for (const file of files) {
      const response = await request(api.app)
        .get(file.slice(SITE.length))
        .expect(200)
        .expect('Content-Type', /xml/);
      locations.push(...[...response.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!));
    }
    for (const path of publicRoutes) expect(locations).toContain(`${SITE}${path}`);
    expect(locations).toContain(`${SITE}/videos/${shown.slug}`);
    expect(locations).toContain(`${SITE}/video/${open.id}/purchase`);
    expect(locations).not.toContain(`${SITE}/video/${closed.id}/purchase`);
    expect(locations.some((location) => location?.includes('/admin'))).toBe(false);
  });
});

describe('server-rendered pages', () => {
  const pageData = (html: string) =>
    JSON.parse(
      /<script id="page-data" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as Record<string, Array<{ id: string; title: string }>> | null;
  const root = (html: string) => /<div id="root"[^>]*>([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';

  it('sends the video library rendered, with the lists it shows, and follows admin writes', async () => {
    const showcase = await createShowcase(env.database.db, { orderPriority: 0, name: 'Festival Finals' });
    const video = await createVideo(env.database.db, { showcaseId: showcase.id, title: 'Duet & Friends' });
    await api.deps.publicCache.changed();

    const html = (await request(api.app).get('/videos').expect(200)).text;
    const data = pageData(html)!;
    expect(data['/api/library']).toEqual((await request(api.app).get('/api/library').expect(200)).body);
    expect(data['/api/showcases']).toEqual((await request(api.app).get('/api/showcases').expect(200)).body);
    // The page itself, as the app renders it: headings, the card and its link, escaped.
    expect(root(html)).toContain('<h1 class="text-4xl font-bold text-white">Video Library</h1>');
    expect(root(html)).toContain('Festival Finals');
    expect(root(html)).toContain('Duet &amp; Friends');
    expect(root(html)).not.toContain('Loading…');
    // The app's own markup, which the browser hydrates.
    expect(html).toContain('<div id="root" data-hydrate>');

    await env.database.db.update(videos).set({ title: 'Renamed Duet' }).where(eq(videos.id, video.id));
    await api.deps.publicCache.changed();
    const after = (await request(api.app).get('/videos').expect(200)).text;
    expect(root(after)).toContain('Renamed Duet');
    expect(root(after)).not.toContain('Duet &amp; Friends');
  });

  it('says a search is still looking in the programmes, not that nothing matched, until the browser asks them', async () => {
    // The programmes are searched from the browser only; the server's page must not flash "No videos match".
    const searching = root((await request(api.app).get('/videos?q=Zzyzx+Quill').expect(200)).text);
    expect(searching).toContain('Looking for “Zzyzx Quill” in the competition programmes…');
    expect(searching).not.toContain('No videos match');
    // Videos without a showcase have no programme to wait for.
    const unlisted = root(
      (await request(api.app).get('/videos?q=Zzyzx+Quill&showcase=more').expect(200)).text,
    );
    // (React keeps the text's parts apart with empty comments.)
    expect(unlisted.replaceAll('<!-- -->', '')).toContain('No videos match “Zzyzx Quill”.');
  });

  it('sends home rendered by its components, with the lists it opens on', async () => {
    await createEvent(env.database.db, { title: 'Marlborough Dance Festival', date: '2031-03-14' });
    await api.deps.publicCache.changed();
    const home = (await request(api.app).get('/').expect(200)).text;
    const data = pageData(home)!;
    expect(Object.keys(data).sort()).toEqual([
      '/api/events',
      '/api/portfolio',
      '/api/portfolio?category=solo',
      '/api/testimonials',
    ]);
    for (const url of Object.keys(data)) {
      expect(data[url]).toEqual((await request(api.app).get(url).expect(200)).body);
    }
    // What the app's components render, and no hand-written copy could: the hero's buttons, the
    // services, the gallery's tabs and the competition from the database with its date as the app writes it.
    const page = root(home);
    expect(page).toContain(
      `<h1 class="mt-4 text-4xl leading-tight font-bold text-white sm:text-6xl">${hero.heading}</h1>`,
    );
    expect(page).toContain('>Dance Competition Bookings</button>');
    expect(page).toContain('role="tablist"');
    expect(page).toContain('Marlborough Dance Festival');
    expect(page).toContain(formatEventDate('2031-03-14'));
    expect(page).toContain('>Photography &amp; Videography for the Stage</h2>');
    expect(page).toContain('id="contact"');
    // The app's own markup, which the browser hydrates.
    expect(home).toContain('<div id="root" data-hydrate>');
  });

  it.each(servicePages.map((page) => [page.path, page] as const))(
    'sends %s rendered by its components: the whole page, without page data',
    async (path, page) => {
      const html = (await request(api.app).get(path).expect(200)).text;
      expect(html).not.toContain('id="page-data"');
      expect(html).toContain('<div id="root" data-hydrate>');
      const markup = decode(root(html));
      expect(markup).toContain(page.heading);
      expect(markup).toContain(page.secondaryButton.label);
      // Every FAQ, open to read in its <details> without JavaScript, as the FAQPage data says.
      for (const faq of page.faqs) expect(markup).toContain(faq.answer);
      for (const card of page.cards) expect(markup).toContain(card.title);
      expect(markup).toContain('Ready to Book?');
    },
  );

  it("paints a dancer's or a studio's page at once, the same shell for each, naming no one", async () => {
    const shells = await Promise.all(
      ['/dancers/a1b2c3', '/dancers/d4e5f6/', '/studios/a1b2c3'].map(
        async (path) => (await request(api.app).get(path).expect(200)).text,
      ),
    );
    for (const html of shells) {
      expect(html).toContain('<div id="root" data-hydrate data-start="paint">');
      // The routines come from the api after the first paint, never inside a kept page.
      expect(html).not.toContain('id="page-data"');
      expect(decode(root(html))).toContain('Video Library');
    }
    expect(root(shells[1]!)).toBe(root(shells[0]!));
  });

  it("names a download page's scripts in its head, hls.js only when the video has a stream", async () => {
    const scripts = (html: string) =>
      [
        ...html.matchAll(
          /<link rel="modulepreload" crossorigin (fetchpriority="low" )?href="\/assets\/([^"]+)"/g,
        ),
      ].map((match) => `${match[2]!.replace(/-[\w-]+\.js$/, '')}${match[1] ? ' (low)' : ''}`);
    const plain = await createVideo(env.database.db, { title: 'Tap Solo' });
    const streamed = await createVideo(env.database.db, {
      title: 'Lyrical Duo',
      processingState: 'ready',
      media: processedMedia({
        hls: { state: 'ready', error: null, prefix: `streams/${'a'.repeat(24)}/`, renditions: [] },
      }),
    });
    const page = async (path: string) => (await request(api.app).get(path).expect(200)).text;
    const withStream = await page(`/video/${streamed.id}/download?session_id=cs_test_1`);
    // The app waits for the named screen code instead of painting a spinner first (web/src/main.tsx).
    expect(withStream).toContain('<div id="root" data-screen-preloaded>');
    expect(scripts(withStream)).toEqual(expect.arrayContaining(['index', 'download', 'hls.light (low)']));
    const without = scripts(await page(`/video/${plain.id}/download?session_id=cs_test_1`));
    expect(without).toEqual(expect.arrayContaining(['index', 'download']));
    expect(without.some((name) => name.startsWith('hls'))).toBe(false);
    // Another page that arrives empty: only the entry, which its starter asks for at once anyway.
    const purchase = scripts(await page(`/video/${plain.id}/purchase`));
    expect(purchase).toContain('index');
    expect(purchase.some((name) => name.startsWith('download'))).toBe(false);
    // A painted page keeps its scripts until it has painted (decision 015).
    expect(scripts(await page('/'))).toEqual([]);
  });

  it("asks for a dancer's answer and the page's code with the page itself", async () => {
    const page = async (path: string) => (await request(api.app).get(path).expect(200)).text;
    const [dancer, studio, odd] = await Promise.all([
      page('/dancers/a1b2c3'),
      page('/studios/d4e5f6/'),
      page('/dancers/a%22b'),
    ]);
    // The page's own fetch (credentials 'include') takes it over only with the same credentials mode.
    expect(dancer).toContain(
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/dancers/a1b2c3" />',
    );
    expect(studio).toContain(
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/studios/d4e5f6" />',
    );
    // The app's code and the screen's, after the stylesheet and at low priority; the starter starts the
    // app at the first paint (web/start-after-paint.ts).
    const files = [
      ...dancer.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)" \/>/g),
    ].map((match) => match[1]!);
    expect(files[0]).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    expect(files.some((file) => /^\/assets\/performer-[\w-]+\.js$/.test(file))).toBe(true);
    const assets = readdirSync(path.join(webDist, 'assets'));
    for (const file of files) expect(assets).toContain(file.replace('/assets/', ''));
    expect(dancer.indexOf('rel="stylesheet"')).toBeLessThan(dancer.indexOf('rel="modulepreload"'));
    expect(dancer).toContain('<div id="root" data-hydrate data-start="paint">');
    // An id no page could have is not written into the page; the code is asked for all the same.
    expect(odd).not.toContain('rel="preload"');
    expect(odd).toContain('<div id="root" data-hydrate data-start="paint">');
    // Other pages start the app after they have loaded, as before (decision 015).
    const home = (await request(api.app).get('/').expect(200)).text;
    expect(home).not.toContain('rel="modulepreload"');
    expect(home).not.toContain('data-start');
  });

  it('sends a page that is not found empty, for the browser to render', async () => {
    const html = (await request(api.app).get('/no/such/page').expect(404)).text;
    expect(html).toContain('<div id="root"></div>');
  });

  it("follows the owner's testimonials at once: none sent while there are none", async () => {
    const quotes = async () =>
      pageData((await request(api.app).get('/').expect(200)).text)!['/api/testimonials'];
    expect(await quotes()).toEqual([]);
    // As the admin route writes (its cookie is https-only on this site: testimonials.test.ts drives it).
    await env.database.db.insert(testimonials).values({ name: 'Mere K.', quote: 'Spot on.' });
    await api.deps.publicCache.changed();
    expect(await quotes()).toEqual([expect.objectContaining({ name: 'Mere K.', quote: 'Spot on.' })]);
  });
});

describe('compression', () => {
  // The app's entry (index.html itself loads only the small starter: web/start-after-paint.ts).
  const script = () =>
    `/assets/${readdirSync(path.join(webDist, 'assets')).find((name) => /^index-.*\.js$/.test(name))!}`;

  it("sends the build's precompressed copy the browser accepts, and the plain file otherwise", async () => {
    const brotli = await request(api.app)
      .get(script())
      .set('Accept-Encoding', 'gzip, deflate, br')
      .expect(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['vary']).toMatch(/Accept-Encoding/);
    expect(brotli.headers['cache-control']).toMatch(/immutable/);
    const gzip = await request(api.app).get(script()).set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await request(api.app).get(script()).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/javascript/);
  });

  it('compresses pages for browsers that accept it', async () => {
    const page = await request(api.app).get('/').set('Accept-Encoding', 'gzip').expect(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.text).toContain('<title>');
  });
});
