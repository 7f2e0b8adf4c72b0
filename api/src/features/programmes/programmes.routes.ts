import { Router } from 'express';
import { programmeSearchQuerySchema, textIdSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { performerPage } from './performers.service.ts';
import { searchedShowcaseId, searchProgramme } from './programme-search.ts';
import { showcaseOpener } from '../privacy/showcase-access.ts';
import { searchMissLog } from '../search-misses/search-miss-log.ts';

/**
 * "Find your dancer" and the dancer and studio pages (decision 032). Answers are not kept in the public
 * cache and not cached by browsers or proxies: they hold children's names, which the owner may remove.
 */
export function programmeRoutes(deps: Deps): Router {
  const { db } = deps;
  const router = Router();
  const logMiss = searchMissLog(deps);
  const private_ = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };

  router.get('/api/programme/search', rateLimiter(deps, limits.nameSearch), async (req, res) => {
    const { q, showcase } = programmeSearchQuerySchema.parse(req.query);
    const found = await searchProgramme(db, q, showcase);
    res.set(private_).json(found);
    if (found.groups.length > 0) return;
    // A miss within one competition (where its QR code leads) is listed under it in the season view.
    // After the answer: a search never waits for its log, nor fails with it.
    const showcaseId =
      showcase === undefined ? null : await searchedShowcaseId(db, showcase).catch(() => null);
    logMiss({ source: 'programme', showcaseId, text: q });
  });

  for (const kind of ['dancer', 'studio'] as const)
    router.get(`/api/${kind}s/:id`, async (req, res) => {
      const id = textIdSchema.parse(req.params.id);
      res.set(private_).json(await performerPage(db, kind, id, showcaseOpener(deps, req)));
    });
  return router;
}
