import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import type { Config } from '@app/shared/config';
import { pageHead, renderHead, renderShell, robotsTxt, sitemapXml } from './seo.ts';

export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const HEAD_MARKER = '<!--app-head-->';
const SHELL_MARKER = '<!--app-shell-->';

/**
 * Serves the built web app: hashed assets cached for a year; every page gets index.html with that
 * page's head (title, description, canonical, social tags, JSON-LD) and status.
 */
export function webRoutes(config: Config): Router {
  const router = Router();
  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(config));
  });
  router.get('/sitemap.xml', (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(sitemapXml(config));
  });

  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return router;

  router.use(
    '/assets',
    express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }),
  );
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));

  let indexHtml: Promise<string> | undefined;
  router.get(/^(?!\/api\/).*/, async (req, res) => {
    indexHtml ??= readFile(indexFile, 'utf8');
    const head = pageHead(req.path, config);
    // A replacer function: the head contains "$$" (priceRange), which a replacement string would mangle.
    const html = (await indexHtml)
      .replace(HEAD_MARKER, () => renderHead(head, config))
      .replace(SHELL_MARKER, () => (head.status === 200 ? renderShell(req.path) : ''));
    res.status(head.status).set('Cache-Control', 'no-cache').type('html').send(html);
  });
  return router;
}
