import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import {
  BUYER_LINK_SENT,
  buyerEmailSchema,
  buyerLinkRequestSchema,
  buyerSignInSchema,
  type BuyerLinkResponse,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { rateLimiter } from '../../http/rate-limit.ts';
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

type Rule = Parameters<typeof rateLimiter>[1];

/** The address a link request names, as the route will read it; digested so no address sits in Redis. */
const requestedAddress = (req: Request) => {
  const email = buyerEmailSchema.safeParse(req.body?.email);
  return email.success ? createHash('sha256').update(email.data).digest('base64url') : '';
};

export const buyerLimits = {
  /** A school or a family shares one address; twenty links an hour is plenty for all of them. */
  linkPerIp: { name: 'buyer-link-ip', limit: 20, windowMs: 60 * 60_000, what: 'sign-in link requests' },
  /** One inbox needs few links; more would let anyone flood a stranger's inbox. */
  linkPerEmail: {
    name: 'buyer-link-email',
    limit: 5,
    windowMs: 60 * 60_000,
    what: 'sign-in link requests for this address',
    key: requestedAddress,
    skip: (req: Request) => requestedAddress(req) === '',
  },
  signIn: { name: 'buyer-sign-in', limit: 30, windowMs: 15 * 60_000, what: 'sign-in attempts' },
} satisfies Record<string, Rule>;

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
    rateLimiter(deps, buyerLimits.linkPerIp),
    rateLimiter(deps, buyerLimits.linkPerEmail),
    async (req, res) => {
      const { email } = buyerLinkRequestSchema.parse(req.body ?? {});
      await requestSignInLink(deps, email);
      res.status(202).json({ message: BUYER_LINK_SENT } satisfies BuyerLinkResponse);
    },
  );

  router.post('/api/my-videos/sign-in', rateLimiter(deps, buyerLimits.signIn), async (req, res) => {
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
    res.json(await buyerLibrary(db, email));
  });

  router.post('/api/my-videos/logout', async (req, res) => {
    await signOut(db, cookieOf(req));
    setCookie(deps, res, null);
    res.status(204).end();
  });

  return router;
}
