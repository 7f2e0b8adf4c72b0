import { Router, type Request, type Response } from 'express';
import {
  BUYER_LINK_SENT,
  buyerLinkRequestSchema,
  buyerSignInSchema,
  type BuyerLinkResponse,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { documentForBuyer, documentsOfBuyer } from '../gst/documents.service.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { sameOriginWrites } from '../../http/session.ts';
import {
  BUYER_COOKIE,
  buyerLibrary,
  buyerSessionEmail,
  BUYER_SESSION_DAYS,
  requestSignInLink,
  signIn,
  signOut,
} from './buyer-library.service.ts';

const COOKIE_PATH = '/api/my-videos';

function cookieOf(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === BUYER_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

function setCookie(deps: Deps, res: Response, secret: string | null) {
  const options = {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: deps.config.secureCookies,
    path: COOKIE_PATH,
  };
  if (secret === null) res.clearCookie(BUYER_COOKIE, options);
  else res.cookie(BUYER_COOKIE, secret, { ...options, maxAge: BUYER_SESSION_DAYS * 24 * 3600_000 });
}

export function buyerLibraryRoutes(deps: Deps): Router {
  const { db } = deps;
  const router = Router();
  router.use(COOKIE_PATH, sameOriginWrites(deps));

  router.post(
    '/api/my-videos/link',
    rateLimiter(deps, limits.buyerLinkPerIp),
    rateLimiter(deps, limits.buyerLinkPerEmail),
    async (req, res) => {
      const { email } = buyerLinkRequestSchema.parse(req.body ?? {});
      await requestSignInLink(deps, email);
      res.status(202).json({ message: BUYER_LINK_SENT } satisfies BuyerLinkResponse);
    },
  );

  router.post('/api/my-videos/sign-in', rateLimiter(deps, limits.buyerSignIn), async (req, res) => {
    const { email, token } = buyerSignInSchema.parse(req.body ?? {});
    const { secret } = await signIn(db, email, token);
    // A browser signed in as someone else (a shared family tablet) ends that session.
    await signOut(db, cookieOf(req));
    setCookie(deps, res, secret);
    res.set('Cache-Control', 'no-store').json({ email });
  });

  router.get('/api/my-videos', async (req, res) => {
    const email = await buyerSessionEmail(db, cookieOf(req));
    res.set('Cache-Control', 'no-store');
    if (!email) throw new HttpError(401, 'Sign in to see your videos');
    const [library, documents] = await Promise.all([buyerLibrary(db, email), documentsOfBuyer(db, email)]);
    res.json({ ...library, documents });
  });

  // A receipt, invoice or credit note of the signed-in buyer's own purchases (404 for anyone else's).
  router.get('/api/my-videos/documents/:id.pdf', async (req, res) => {
    const email = await buyerSessionEmail(db, cookieOf(req));
    res.set('Cache-Control', 'no-store');
    if (!email) throw new HttpError(401, 'Sign in to see your documents');
    const file = await documentForBuyer(db, email, String(req.params.id));
    res
      .type('application/pdf')
      .set('Content-Disposition', `inline; filename="${file.fileName}"`)
      .send(file.body);
  });

  router.post('/api/my-videos/logout', async (req, res) => {
    await signOut(db, cookieOf(req));
    setCookie(deps, res, null);
    res.status(204).end();
  });

  return router;
}
