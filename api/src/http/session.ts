import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import type { RequestHandler } from 'express';
import type { Deps } from '../deps.ts';
import { HttpError } from './errors.ts';

declare module 'express-session' {
  interface SessionData {
    admin?: boolean;
  }
}

export const SESSION_COOKIE = 'sid';
const EIGHT_HOURS = 8 * 3600 * 1000;

/** Server-side admin sessions in the PostgreSQL `sessions` table; no cookie until login. */
export function sessionMiddleware({ pool, config }: Deps): RequestHandler {
  const PgStore = connectPgSimple(session);
  return session({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    store: new PgStore({
      pool,
      tableName: 'sessions',
      createTableIfMissing: false,
      pruneSessionInterval: 3600,
    }),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    cookie: {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.secureCookies,
      maxAge: EIGHT_HOURS,
      path: '/',
    },
  });
}

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (req.session?.admin === true) next();
  else next(new HttpError(401, 'Admin login required'));
};

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site protection for state-changing admin requests, on top of the SameSite cookie:
 * a browser always sends Origin on a cross-origin write, so one that is not ours is refused.
 */
export function sameOriginWrites({ config }: Deps): RequestHandler {
  const publicOrigin = new URL(config.PUBLIC_URL).origin;
  return (req, _res, next) => {
    if (safeMethods.has(req.method)) return next();
    const origin = req.get('origin') ?? refererOrigin(req.get('referer'));
    if (!origin) return next();
    const ownOrigin = `${req.protocol}://${req.get('host')}`;
    if (origin === publicOrigin || origin === ownOrigin) return next();
    next(new HttpError(403, 'Cross-site request refused'));
  };
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer || !URL.canParse(referer)) return undefined;
  return new URL(referer).origin;
}
