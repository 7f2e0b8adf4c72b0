import session from 'express-session';
import type { Config } from '@app/shared/config';
import { purposeKey, sign } from '@app/shared/signing';
import connectPgSimple from 'connect-pg-simple';
import type { RequestHandler } from 'express';
import type { Deps } from '../deps.ts';
import { HttpError } from './errors.ts';

declare module 'express-session' {
  interface SessionData {
    admin?: boolean;
    /** Which admin password the login used (adminPasswordFingerprint): a new password ends the session. */
    passwordFingerprint?: string;
    /** Epoch ms of the login: the session ends ADMIN_SESSION_MAX_MS later however active it is. */
    loggedInAt?: number;
  }
}

export const SESSION_COOKIE = 'sid';
const EIGHT_HOURS = 8 * 3600 * 1000;
/** The absolute lifetime of an admin session, beside the rolling 8 hours of inactivity. */
export const ADMIN_SESSION_MAX_MS = 24 * 3600 * 1000;

/** A keyed digest of the configured admin password (hash): changes when the password does. */
export function adminPasswordFingerprint(config: Config): string {
  return sign(
    purposeKey(config.SESSION_SECRET, 'admin-password'),
    config.ADMIN_PASSWORD_HASH ?? config.ADMIN_PASSWORD ?? '',
  ).slice(0, 22);
}

/**
 * Server-side admin sessions in the PostgreSQL `sessions` table; no cookie until login. A session
 * made under another admin password, or older than ADMIN_SESSION_MAX_MS, is ended on its next use.
 */
export function sessionMiddleware({ pool, config }: Deps): RequestHandler[] {
  const PgStore = connectPgSimple(session);
  const fingerprint = adminPasswordFingerprint(config);
  const endOutdated: RequestHandler = (req, _res, next) => {
    const current = req.session;
    if (
      !current?.admin ||
      (current.passwordFingerprint === fingerprint &&
        Date.now() - (current.loggedInAt ?? 0) < ADMIN_SESSION_MAX_MS)
    )
      return next();
    current.destroy((err) => next(err));
  };
  return [
    session({
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
    }),
    endOutdated,
  ];
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
