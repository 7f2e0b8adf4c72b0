import { Router } from 'express';
import { programmeSearchQuerySchema, textIdSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { performerPage } from './performers.service.ts';
import { searchProgramme } from './programme-search.ts';
import { showcaseOpener } from '../privacy/showcase-access.ts';

/**
 * "Find your dancer" and the dancer and studio pages (decision 032). Answers are not kept in the public
 * cache and not cached by browsers or proxies: they hold children's names, which the owner may remove.
 */
export function programmeRoutes(deps: Deps): Router {
  const { db } = deps;
  const router = Router();
  const private_ = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };

  router.get('/api/programme/search', rateLimiter(deps, limits.nameSearch), async (req, res) => {
    const { q, showcase } = programmeSearchQuerySchema.parse(req.query);
    // Not logged when it finds nothing: the library's search of the same words decides that, as one
    // search of the library page (decision 034).
    res.set(private_).json(await searchProgramme(db, q, showcase));
  });

  for (const kind of ['dancer', 'studio'] as const)
    router.get(`/api/${kind}s/:id`, async (req, res) => {
      const id = textIdSchema.parse(req.params.id);
      res.set(private_).json(await performerPage(db, kind, id, showcaseOpener(deps, req)));
    });
  return router;
}
