import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import express, { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { eq, sql } from 'drizzle-orm';
import { matchVideoPage, normalizePath, performerPage } from '@app/shared/site-copy';
import { servicePages } from '@app/shared/site-copy/service-pages';
import { showcases, videos, type Db } from '@app/shared/db';
import type { Logger } from '@app/shared/logger';
import type { Deps } from '../deps.ts';
import { publishedVideo } from '../features/videos/library.service.ts';
import { homeLists } from '../features/public-lists/public-lists.service.ts';
import { libraryPage, type LibraryPageAnswer } from './library-pages.ts';
import { pageHead, publicConfig, renderHead, videoHead, type PageHead, type VideoForHead } from './seo.ts';
import { libraryMissLog } from '../features/search-misses/search-miss-log.ts';
import { modulePreloadLinks, readModulePreloads } from './module-preloads.ts';
import { hasBearerValue } from '../http/request-log.ts';

/**
 * The web workspace, found as a package: the same from this source file and from the api's bundle
 * (api/dist), which sit at different depths (docs/decisions/001).
 */
const webPackage = path.dirname(createRequire(import.meta.url).resolve('@app/web/package.json'));
/** The browser build (`vite build`): index.html and its assets. */
export const webDist = path.join(webPackage, 'dist');
/** The same pages built for the server (web/src/server.tsx, `vite build --ssr`); see decision 025. */
const serverRenderer = path.join(webPackage, 'dist-server', 'server.js');

interface PageRenderer {
  renderPage(
    path: string,
    data: Record<string, unknown>,
    config: ReturnType<typeof publicConfig>,
    search?: string,
  ): Promise<string>;
}

/** The lists a page shows, by their own routes (as those routes answer them). */
type PageLists = Record<string, (db: Db) => Promise<unknown>>;

/**
 * The pages the api sends rendered by the web app's own components (web/src/server.tsx), with the
 * lists they show, so the app takes the painted page over (hydration) instead of asking for the lists
 * and painting it again. The video library's pages (library-pages.ts) arrive the same way (decision
 * 013); every other page goes out empty and the browser renders it (decision 025).
 */
const renderedPages: Record<string, PageLists> = {
  '/': homeLists,
  // Their words are in @app/shared/site-copy: nothing to read from the database.
  ...Object.fromEntries(servicePages.map((page) => [page.path, {}])),
  // Its words are in @app/shared/site-copy too, with the retention periods from the config.
  '/privacy': {},
};
let pageRenderer: Promise<PageRenderer | undefined> | undefined;
/**
 * The server build of the pages, loaded once; undefined without it (the browser renders them then).
 * api/src/index.ts loads it before listening: loading takes the event loop for a moment, which must
 * not happen while the first requests wait.
 */
export function loadPageRenderer(logger: Logger): Promise<PageRenderer | undefined> {
  pageRenderer ??= existsSync(serverRenderer)
    ? (import(pathToFileURL(serverRenderer).href) as Promise<PageRenderer>).catch((error: unknown) => {
        logger.error({ err: error }, 'server-rendered pages unavailable');
        return undefined;
      })
    : Promise.resolve(undefined);
  return pageRenderer;
}

const HEAD_MARKER = '<!--app-head-->';
const MARKUP_MARKER = '<!--app-markup-->';
const ROOT = '<div id="root">';
const HEAD_END = '</head>';

/**
 * Serves the built web app: hashed assets cached for a year; every page gets index.html with that
 * page's head (title, description, canonical, social tags, JSON-LD) and status.
 */
export function webRoutes({
  config,
  db,
  logger,
  publicCache,
}: Pick<Deps, 'config' | 'db' | 'logger' | 'publicCache'>): Router {
  const router = Router();
  const logMiss = libraryMissLog({ db, logger });

  // Pages still render while PostgreSQL is away: a generic head (or a sitemap without videos) then.
  // `streamReady`: the video has an adaptive stream (its download page's player will load hls.js).
  async function findVideo(
    id: string,
  ): Promise<{ head: VideoForHead | null | undefined; streamReady: boolean }> {
    try {
      const [video] = await db
        .select({
          id: videos.id,
          title: videos.title,
          description: videos.description,
          previewUrl: videos.previewUrl,
          passwordProtected: videos.passwordProtected,
          createdAt: videos.createdAt,
          showcaseIndexed: sql<boolean>`coalesce(${showcases.showVideosInSearchEngines} and ${showcases.privacy} = 'public', false)`,
          locked: sql<boolean>`coalesce(${showcases.privacy} = 'code', false)`,
          shown: sql<boolean>`${publishedVideo}`,
          streamReady: sql<boolean>`coalesce(${videos.media}->'hls'->>'state' = 'ready', false)`,
        })
        .from(videos)
        .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
        .where(eq(videos.id, id));
      // A hidden video's page stays open to its buyers, under a generic head that names nothing.
      // So does a video behind its showcase's access code, for everyone (the head is not per visitor).
      return {
        head: video ? (video.shown && !video.locked ? video : undefined) : null,
        streamReady: video?.streamReady ?? false,
      };
    } catch (error) {
      logger.warn({ err: error }, 'video page head without the video');
      return { head: undefined, streamReady: false };
    }
  }

  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return router;
  const preloads = readModulePreloads(webDist);

  /**
   * A page's lists and, where the server build exists, its markup (without it the browser renders the
   * page from the lists); undefined: not such a page, or its lists could not be read.
   * The same for every visitor, so it is kept under the content version like the lists themselves.
   */
  async function renderPage(
    page: string,
  ): Promise<{ data: Record<string, unknown>; html?: string } | undefined> {
    const lists = renderedPages[page];
    if (!lists) return undefined;
    try {
      return await publicCache.value(`page:${page}`, async () => {
        const entries = await Promise.all(
          // As the routes answer them: JSON, dates as strings.
          Object.entries(lists).map(async ([url, load]) => [url, JSON.parse(JSON.stringify(await load(db)))]),
        );
        const data = Object.fromEntries(entries) as Record<string, unknown>;
        const renderer = await loadPageRenderer(logger);
        return { data, html: await renderer?.renderPage(page, data, publicConfig(config)) };
      });
    } catch (error) {
      logger.warn({ err: error, page }, 'page left for the browser to render');
      return undefined;
    }
  }

  /**
   * A dancer's or studio's page as it first paints, the same for every one of them: the header and the
   * routines' places, no name (they come from the api, never from a cached page; decision 032). Painting
   * it at once instead of after the app's code is what a phone on a venue's 4G notices.
   */
  async function renderPerformerShell(pagePath: string) {
    const kind = performerPage.exec(pagePath)?.[1];
    if (!kind) return undefined;
    const shell = `/${kind}/shell`;
    try {
      return await publicCache.value(`page:${shell}`, async () => {
        const renderer = await loadPageRenderer(logger);
        return { data: {}, html: await renderer?.renderPage(shell, {}, publicConfig(config)) };
      });
    } catch (error) {
      logger.warn({ err: error, page: shell }, 'page left for the browser to render');
      return undefined;
    }
  }

  /**
   * A dancer's or studio's page: its shell paints nothing it could show before the app runs (decision
   * 035), so the page asks for its answer with the page itself: `data`, a preload the page's own fetch
   * (web/src/pages/shop/performer.tsx) takes over (same URL, same credentials mode: 'include', so
   * `use-credentials`). Only the id is written, which the page's address holds already; the answer, with
   * the name, comes from the api alone (decision 032). An id the api would not give is not written.
   */
  function performerPreload(pagePath: string): { data: string } | undefined {
    const kind = performerPage.exec(pagePath)?.[1];
    if (!kind) return undefined;
    const id = /^\/\w+\/([\w-]{1,100})$/.exec(pagePath)?.[1];
    return {
      data: id
        ? `<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/${kind}/${id}" />`
        : '',
    };
  }

  type LibraryRender =
    | Exclude<LibraryPageAnswer, { kind: 'page' }>
    | {
        kind: 'page';
        head: PageHead;
        data: Record<string, unknown>;
        html?: string;
      };

  /**
   * A library page with its lists and markup, kept under the content version like the lists.
   * Undefined: not a library page, or the database could not be asked (the browser renders it then).
   */
  async function renderLibraryPage(path: string, query: URLSearchParams): Promise<LibraryRender | undefined> {
    const load = async (): Promise<LibraryRender | undefined> => {
      const answer = await libraryPage(db, config, path, query, logMiss);
      if (answer?.kind !== 'page') return answer;
      const data = JSON.parse(JSON.stringify(answer.lists)) as Record<string, unknown>;
      const renderer = await loadPageRenderer(logger);
      const [pathname, search = ''] = answer.location.split('?');
      // A page without its lists (a showcase behind an access code) is left for the browser.
      const html =
        Object.keys(data).length > 0
          ? await renderer?.renderPage(pathname!, data, publicConfig(config), search)
          : undefined;
      return { kind: 'page', head: answer.head, data, html };
    };
    try {
      // Search results vary without end: rendered for each request. The other pages are few (one per
      // showcase page), and the cache keeps a bounded number of them.
      if (query.has('q')) return await load();
      return await publicCache.value(`page:${path}?${query.toString()}`, load);
    } catch (error) {
      logger.warn({ err: error, path }, 'library page left for the browser to render');
      return undefined;
    }
  }

  // The build's .br and .gz copies (web/vite.config.ts) go to browsers that accept them.
  router.use(
    '/assets',
    expressStaticGzip(path.join(webDist, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
    }),
  );
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));

  let indexHtml: Promise<string> | undefined;
  router.get(/^(?!\/api\/).*/, async (req, res) => {
    indexHtml ??= readFile(indexFile, 'utf8');
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const library = await renderLibraryPage(req.path, query);
    if (library?.kind === 'redirect') return res.redirect(301, library.location);
    const video = matchVideoPage(req.path);
    const found =
      library === undefined && video
        ? video.id.length <= 100
          ? await findVideo(video.id)
          : { head: null, streamReady: false }
        : undefined;
    const head =
      library?.kind === 'page'
        ? library.head
        : library?.kind === 'not-found'
          ? pageHead('/not-found', config)
          : video && found
            ? videoHead(found.head, video.id, video.kind, config)
            : pageHead(req.path, config);
    const rendered =
      library?.kind === 'page'
        ? library
        : head.status === 200 && head.canonical
          ? await renderPage(head.canonical)
          : head.status === 200
            ? await renderPerformerShell(normalizePath(req.path))
            : undefined;
    const pageData = rendered && Object.keys(rendered.data).length > 0 ? rendered.data : undefined;
    const painted = head.status === 200 && Boolean(rendered?.html);
    // A page that arrives empty starts its scripts at once (web/start-after-paint.ts): name them here, so
    // they load beside the stylesheet; a download page adds its own code, and hls.js when the video has a
    // stream (decision 031). A painted page keeps its scripts until it has painted, except a dancer's or
    // studio's shell: its code comes at low priority after the stylesheet, and the app starts at the
    // first paint (`data-start`) instead of after the load event (decision 035).
    const downloadPage = !painted && video?.kind === 'download' && head.status === 200;
    const performer = painted ? performerPreload(normalizePath(req.path)) : undefined;
    const scripts = painted ? [] : downloadPage ? preloads.download : preloads.entry;
    const later = downloadPage && found?.streamReady ? preloads.hls : performer ? preloads.performer : [];
    // A replacer function: the head contains "$$" (priceRange), which a replacement string would mangle.
    const html = (await indexHtml)
      .replace(HEAD_MARKER, () =>
        [
          ...(performer?.data ? [performer.data] : []),
          renderHead(head, config, pageData, { analytics: !hasBearerValue(req.originalUrl) }),
        ].join('\n    '),
      )
      // At the head's end: the stylesheet and the small starter are asked for first.
      .replace(HEAD_END, () =>
        scripts.length + later.length > 0
          ? `  ${modulePreloadLinks(scripts, later)}\n  ${HEAD_END}`
          : HEAD_END,
      )
      .replace(MARKUP_MARKER, () => (painted ? (rendered?.html ?? '') : ''))
      // The app's own markup: the browser hydrates it instead of rendering the page again (main.tsx).
      .replace(ROOT, () =>
        painted
          ? `<div id="root" data-hydrate${performer ? ' data-start="paint"' : ''}>`
          : // The screen's code is named in the head: the app waits for it rather than show a spinner first.
            downloadPage && preloads.download.length > 0
            ? '<div id="root" data-screen-preloaded>'
            : ROOT,
      );
    // Also as a header: crawlers that fetch without parsing the page (and unlisted showcases' pages) obey it.
    if (head.noindex) res.set('X-Robots-Tag', 'noindex');
    res.status(head.status).set('Cache-Control', 'no-cache').type('html').send(html);
  });
  return router;
}
