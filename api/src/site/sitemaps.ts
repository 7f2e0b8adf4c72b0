import { Router, type Response } from 'express';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { showcases, videos } from '@app/shared/db';
import { listedVideo } from '@app/shared/sales';
import type { Deps } from '../deps.ts';
import { publishedVideo } from '../features/videos/library.service.ts';
import { showcasePath } from './library-pages.ts';
import { robotsTxt, SITEMAP_MAX_URLS, sitemapIndexXml, sitemapPagePaths, sitemapXml } from './seo.ts';

/**
 * robots.txt and the sitemaps: the public pages, the public showcases and the indexable video pages.
 * No dancer, studio or private showcase is ever listed (decisions 030, 032).
 */
export function sitemapRoutes({ config, db, logger }: Pick<Deps, 'config' | 'db' | 'logger'>): Router {
  const router = Router();

  // Video pages in sitemaps: open videos of showcases the owner shows in search engines.
  const indexableVideo = and(
    eq(videos.passwordProtected, false),
    listedVideo,
    eq(showcases.showVideosInSearchEngines, true),
    eq(showcases.privacy, 'public'),
    publishedVideo,
  );

  /** The sitemap's files; while PostgreSQL is away, the public routes alone. */
  async function sitemapFiles(): Promise<number> {
    try {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(videos)
        .innerJoin(showcases, eq(showcases.id, videos.showcaseId))
        .where(indexableVideo);
      return Math.ceil((row?.count ?? 0) / SITEMAP_MAX_URLS);
    } catch (error) {
      logger.warn({ err: error }, 'sitemap without videos');
      return 0;
    }
  }

  async function showcasePaths(): Promise<string[]> {
    try {
      const rows = await db
        .select({ slug: showcases.slug })
        .from(showcases)
        .where(
          sql`${showcases.published} and ${showcases.privacy} = 'public' and exists (select 1 from videos v where v.showcase_id = ${showcases.id} and v.published)`,
        )
        .orderBy(asc(showcases.orderPriority), asc(showcases.createdAt));
      const loose = await db.$count(videos, sql`${videos.showcaseId} is null and ${videos.published}`);
      return [...rows.map((row) => showcasePath(row.slug)), ...(loose > 0 ? [showcasePath('more')] : [])];
    } catch (error) {
      logger.warn({ err: error }, 'sitemap without showcases');
      return [];
    }
  }

  /** Part `part` (from 1) of the indexable video pages, in a stable order (by id, a keyset). */
  async function videoPaths(part: number): Promise<string[]> {
    // Each part starts after the last id of the one before: found by id order, without OFFSET.
    let after = '';
    for (let index = 1; index <= part; index++) {
      const rows = await db
        .select({ id: videos.id })
        .from(videos)
        .innerJoin(showcases, eq(showcases.id, videos.showcaseId))
        .where(and(indexableVideo, gt(videos.id, after)))
        .orderBy(asc(videos.id))
        .limit(SITEMAP_MAX_URLS);
      if (index === part) return rows.map((row) => `/video/${encodeURIComponent(row.id)}/purchase`);
      if (rows.length < SITEMAP_MAX_URLS) return [];
      after = rows.at(-1)!.id;
    }
    return [];
  }

  const xml = (res: Response, body: string) =>
    res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(body);

  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(config));
  });
  router.get('/sitemap.xml', async (_req, res) => {
    xml(res, sitemapIndexXml(config, await sitemapFiles()));
  });
  router.get('/sitemaps/pages.xml', async (_req, res) => {
    xml(res, sitemapXml(config, sitemapPagePaths(await showcasePaths())));
  });
  router.get(/^\/sitemaps\/videos-([1-9]\d{0,5})\.xml$/, async (req, res, next) => {
    const paths = await videoPaths(Number(req.params[0]));
    if (paths.length === 0) return next();
    xml(res, sitemapXml(config, paths));
  });

  return router;
}
