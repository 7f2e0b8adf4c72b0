import { Router } from 'express';
import { adminLoginSchema, type AdminSession } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { GuessGuard, guessRules } from '../../http/guesses.ts';
import { adminPasswordFingerprint, SESSION_COOKIE } from '../../http/session.ts';
import { isAdminPassword } from './admin-session.service.ts';

/** The two admin calls open to visitors: logging in and asking whether one is logged in. */
export function adminSessionRoutes(deps: Deps): Router {
  const router = Router();
  const guesses = new GuessGuard(deps, guessRules.login);

  router.post('/api/admin/login', rateLimiter(deps, limits.login), async (req, res) => {
    const { password } = adminLoginSchema.parse(req.body ?? {});
    await guesses.check(req);
    if (!(await isAdminPassword(deps.config, password))) {
      await guesses.failed(req);
      throw new HttpError(401, 'Incorrect password');
    }
    // A fresh session id on login, so a planted cookie cannot be promoted to admin.
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((err) => (err ? reject(err) : resolve())),
    );
    req.session.admin = true;
    req.session.passwordFingerprint = adminPasswordFingerprint(deps.config);
    req.session.loggedInAt = Date.now();
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
    res.status(204).end();
  });

  router.get('/api/admin/session', (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ authenticated: req.session?.admin === true } satisfies AdminSession);
  });

  return router;
}

/** Logout is an admin route: it needs the session it ends. */
export function registerLogout(router: Router): void {
  router.post('/api/admin/logout', async (req, res) => {
    await new Promise<void>((resolve, reject) =>
      req.session.destroy((err) => (err ? reject(err) : resolve())),
    );
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.status(204).end();
  });
}
