import { Router } from 'express';
import { textIdSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { performerPage } from './performers.service.ts';
import { PRIVATE_ANSWER } from './programme-search.route.ts';
import { showcaseOpener } from '../privacy/showcase-access.ts';

/**
 * The dancer and studio pages (decision 032); the search that leads to them is answered before Express
 * (programme-search.route.ts). Answers are not kept in the public cache and not cached by browsers or
 * proxies: they hold children's names, which the owner may remove.
 */
export function programmeRoutes(deps: Deps): Router {
  const router = Router();
  for (const kind of ['dancer', 'studio'] as const)
    router.get(`/api/${kind}s/:id`, async (req, res) => {
      const id = textIdSchema.parse(req.params.id);
      res.set(PRIVATE_ANSWER).json(await performerPage(deps.db, kind, id, showcaseOpener(deps, req)));
    });
  return router;
}
