import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { asc, eq } from 'drizzle-orm';
import { matchVideoPage } from '@app/shared/content';
import { videos } from '@app/shared/db';
import type { Deps } from './deps.ts';
import {
  pageHead,
  renderHead,
  renderShell,
  robotsTxt,
  sitemapXml,
  videoHead,
  type VideoForHead,
} from './seo.ts';

export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const HEAD_MARKER = '<!--app-head-->';
const SHELL_MARKER = '<!--app-shell-->';

/**
 * Serves the built web app: hashed assets cached for a year; every page gets index.html with that
 * page's head (title, description, canonical, social tags, JSON-LD) and status.
 */
export function webRoutes({ config, db, logger }: Pick<Deps, 'config' | 'db' | 'logger'>): Router {
  const router = Router();

  // Pages still render while PostgreSQL is away: a generic head (or a sitemap without videos) then.
  async function findVideo(id: string): Promise<VideoForHead | null | undefined> {
    try {
      const [video] = await db
        .select({
          id: videos.id,
          title: videos.title,
          description: videos.description,
          previewUrl: videos.previewUrl,
          passwordProtected: videos.passwordProtected,
          createdAt: videos.createdAt,
        })
        .from(videos)
        .where(eq(videos.id, id));
      return video ?? null;
    } catch (error) {
      logger.warn({ err: error }, 'video page head without the video');
      return undefined;
    }
  }

  async function openVideoIds(): Promise<string[]> {
    try {
      const rows = await db
        .select({ id: videos.id })
        .from(videos)
        .where(eq(videos.passwordProtected, false))
        .orderBy(asc(videos.createdAt));
      return rows.map((row) => row.id);
    } catch (error) {
      logger.warn({ err: error }, 'sitemap without videos');
      return [];
    }
  }

  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(config));
  });
  router.get('/sitemap.xml', async (_req, res) => {
    res
      .type('application/xml')
      .set('Cache-Control', 'public, max-age=3600')
      .send(sitemapXml(config, await openVideoIds()));
  });

  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return router;

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
    const video = matchVideoPage(req.path);
    const head = video
      ? videoHead(video.id.length <= 100 ? await findVideo(video.id) : null, video.id, video.kind, config)
      : pageHead(req.path, config);
    // A replacer function: the head contains "$$" (priceRange), which a replacement string would mangle.
    const html = (await indexHtml)
      .replace(HEAD_MARKER, () => renderHead(head, config))
      .replace(SHELL_MARKER, () => (head.status === 200 ? renderShell(req.path) : ''));
    res.status(head.status).set('Cache-Control', 'no-cache').type('html').send(html);
  });
  return router;
}
