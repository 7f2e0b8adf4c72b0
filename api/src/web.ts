import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Serves the built web app: hashed assets cached for a year, every other page gets index.html. */
export function webRoutes(): Router {
  const router = Router();
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return router;

  router.use(
    '/assets',
    express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }),
  );
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));

  let indexHtml: Promise<string> | undefined;
  router.get(/^(?!\/api\/).*/, async (_req, res) => {
    indexHtml ??= readFile(indexFile, 'utf8');
    res.set('Cache-Control', 'no-cache').type('html').send(await indexHtml);
  });
  return router;
}
