import { Router, type Request } from 'express';
import {
  auditEntrySchema,
  REMOVAL_REQUEST_RECEIVED,
  removalRequestSchema,
  removalStatusUpdateSchema,
  showcaseAccessRequestSchema,
  textIdSchema,
  withdrawVideoSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { GuessGuard, guessRules } from '../../http/guesses.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { videoWithVisibility } from '../videos/library.service.ts';
import { findPerformer } from '../programmes/performers.service.ts';
import { accessCodeRequired, showcaseOpener } from './showcase-access.ts';
import {
  adminRemovalRequests,
  auditEntries,
  openShowcase,
  requestRemoval,
  restoreVideo,
  type RemovalSubject,
  setRemovalStatus,
  withdrawVideo,
} from './privacy.service.ts';

/** The public side: typing a showcase's access code, and asking for a video to be taken down. */
export function privacyRoutes(deps: Deps): Router {
  const router = Router();

  const codeGuesses = new GuessGuard(deps, guessRules.accessCode);
  router.post('/api/showcase-access', rateLimiter(deps, limits.accessCode), async (req, res) => {
    const input = showcaseAccessRequestSchema.parse(req.body ?? {});
    res.set('Cache-Control', 'no-store').json(await openShowcase(deps, res, input, codeGuesses.about(req)));
  });

  // A removal request about a video or, from her page, a dancer (issue 28 item 4): both under the same
  // limits, and only about what this browser may see; `subjectOf` finds it or refuses.
  const removalRequestRoute = (
    path: string,
    subjectOf: (id: string, req: Request) => Promise<RemovalSubject>,
  ) =>
    router.post(
      path,
      rateLimiter(deps, limits.removalRequest),
      rateLimiter(deps, limits.removalRequestAll),
      async (req, res) => {
        const id = textIdSchema.parse(req.params.id);
        const input = removalRequestSchema.parse(req.body ?? {});
        await requestRemoval(deps, await subjectOf(id, req), input);
        res.status(202).json({ message: REMOVAL_REQUEST_RECEIVED });
      },
    );

  removalRequestRoute('/api/videos/:id/removal-request', async (id) => {
    const video = await videoWithVisibility(deps.db, id);
    // Only for videos the public can see (a page that shows the button).
    if (!video?.shown) throw notFound('Video not found');
    return { kind: 'video', id: video.id, title: video.title };
  });

  // Her name and her routines; behind an access code, once this browser typed the code.
  removalRequestRoute('/api/dancers/:id/removal-request', async (id, req) => {
    const dancer = await findPerformer(deps.db, 'dancer', id);
    if (!dancer) throw notFound('Dancer not found');
    if (!showcaseOpener(deps, req)(dancer.gate)) throw accessCodeRequired();
    return { kind: 'dancer', id: dancer.id, name: dancer.name, showcaseName: dancer.showcaseName };
  });

  return router;
}

/** The owner's queue of removal requests, the takedown itself and the audit log (admin router). */
export function registerPrivacyAdminRoutes(admin: Router, deps: Deps): void {
  const { db, publicCache } = deps;

  admin.get('/api/admin/removal-requests', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminRemovalRequests(db));
  });

  admin.patch('/api/admin/removal-requests/:id', async (req, res) => {
    const { status } = removalStatusUpdateSchema.parse(req.body ?? {});
    res.json(await setRemovalStatus(db, textIdSchema.parse(req.params.id), status));
  });

  // Takes effect on every replica before it answers (the content version is bumped).
  admin.post('/api/admin/videos/:id/withdraw', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const withdrawn = await withdrawVideo(db, id, withdrawVideoSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(withdrawn);
  });

  admin.post('/api/admin/videos/:id/restore', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const restored = await restoreVideo(db, id, withdrawVideoSchema.parse(req.body ?? {}).reason);
    await publicCache.changed();
    res.json(restored);
  });

  admin.get('/api/admin/audit-log', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(auditEntrySchema.array().parse(await auditEntries(db)));
  });
}
