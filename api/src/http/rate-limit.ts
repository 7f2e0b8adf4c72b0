import { createHash } from 'node:crypto';
import { rateLimit, type Options } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { errorBody } from '@app/shared/errors';
import { RedisUnavailableError, withRedisTimeout } from '@app/shared/redis';
import { buyerEmailSchema, videoIdSchema } from '@app/shared/schemas';
import type { Deps } from '../deps.ts';
import { addressKey } from './client-address.ts';
import { sendJson } from './send-json.ts';

/**
 * rate-limit-redis loads its Lua script once at start and keeps a rejected promise if Redis was
 * down then, so it would never limit again. This store reloads the script after a failure.
 */
class RecoveringRedisStore extends RedisStore {
  override async init(options: Parameters<RedisStore['init']>[0]) {
    // Redis may still be connecting; the first increment loads the script instead.
    await super.init(options).catch(() => {});
  }

  override async increment(key: string) {
    try {
      return await super.increment(key);
    } catch {
      this.incrementScriptSha = this.loadIncrementScript();
      return super.increment(key);
    }
  }
}

interface LimitRule {
  name: string;
  limit: number;
  windowMs: number;
  /** What the visitor was trying to do, for the 429 message ("login attempts"). */
  what: string;
  key?: Options['keyGenerator'];
  skip?: Options['skip'];
  /**
   * false: no RateLimit headers. A limit keyed on something the request names (an e-mail address)
   * would tell anyone how often that was asked for; it still refuses with 429.
   */
  headers?: false;
}

/**
 * Per address and video: a wrong guess on one video does not lock a family out of another. The video
 * is the id the route itself will use (the path's, or the verify body's), parsed by the same schema,
 * so padding it or adding fields cannot make a fresh bucket.
 */
const addressAndVideo = (req: Request) => {
  const id = videoIdSchema.safeParse(req.params.id ?? req.body?.videoId);
  return `${addressKey(req.ip)}:${id.success ? id.data : ''}`;
};

/** The address a library link request names, as the route reads it; digested so no address sits in Redis. */
const requestedAddress = (req: Request) => {
  const email = buyerEmailSchema.safeParse(req.body?.email);
  return email.success ? createHash('sha256').update(email.data).digest('base64url') : '';
};

/** Request limits: login, videos, purchases, contact, checkout and the buyer's library (decision 024). */
export const limits = {
  login: { name: 'login', limit: 10, windowMs: 15 * 60_000, what: 'login attempts' },
  videoPassword: {
    name: 'video-password',
    limit: 10,
    windowMs: 15 * 60_000,
    what: 'password attempts',
    key: addressAndVideo,
  },
  /** Stream and download links count against the same limit only when they carry a password guess. */
  videoPasswordGuess: {
    name: 'video-password',
    limit: 10,
    windowMs: 15 * 60_000,
    what: 'password attempts',
    key: addressAndVideo,
    skip: (req: Request) => !req.body?.password,
  },
  /** Stream and download links per address and video: each is a counted event and a signed link. */
  videoLink: {
    name: 'video-link',
    limit: 60,
    windowMs: 15 * 60_000,
    what: 'requests for this video',
    key: addressAndVideo,
  },
  /** Video pages opened per address (counted once an hour each); a beacon, so a 429 costs nobody anything. */
  videoVisit: { name: 'video-visit', limit: 300, windowMs: 15 * 60_000, what: 'page visits' },
  /** A buyer's page asks about once every 20 s (long poll); a school's shared address holds a few buyers. */
  purchaseStatus: { name: 'purchase-status', limit: 120, windowMs: 10 * 60_000, what: 'status requests' },
  contact: { name: 'contact', limit: 10, windowMs: 10 * 60_000, what: 'messages' },
  checkout: { name: 'checkout', limit: 30, windowMs: 60 * 60_000, what: 'checkout attempts' },
  /** The cart page prices the cart each time it changes; up to 50 items each, so it is bounded too. */
  cartCheck: { name: 'cart-check', limit: 120, windowMs: 10 * 60_000, what: 'cart checks' },
  /** A school or a family shares one address; twenty library links an hour is plenty for all of them. */
  buyerLinkPerIp: { name: 'buyer-link-ip', limit: 20, windowMs: 60 * 60_000, what: 'sign-in link requests' },
  /** One inbox needs few links; more would let anyone flood a stranger's inbox. */
  buyerLinkPerEmail: {
    name: 'buyer-link-email',
    limit: 5,
    windowMs: 60 * 60_000,
    what: 'sign-in link requests for this address',
    key: requestedAddress,
    skip: (req: Request) => requestedAddress(req) === '',
    headers: false,
  },
  buyerSignIn: { name: 'buyer-sign-in', limit: 30, windowMs: 15 * 60_000, what: 'sign-in attempts' },
  /** Showcase access codes, as video passwords; by address alone, so no showcase is named by its limit. */
  accessCode: { name: 'access-code', limit: 10, windowMs: 15 * 60_000, what: 'access code attempts' },
  /** Removal requests: a family may ask about a few videos; a flood is refused, never queued. */
  removalRequest: { name: 'removal-request', limit: 5, windowMs: 60 * 60_000, what: 'removal requests' },
  /** All addresses together: a flood from many addresses costs the owner's queue, never the site. */
  removalRequestAll: {
    name: 'removal-request-all',
    limit: 200,
    windowMs: 60 * 60_000,
    what: 'removal requests just now',
    key: () => 'all',
  },
  /**
   * Searches that may answer dancers' names (decision 032): a parent looks for one child in a few
   * searches; walking the alphabet to collect a programme's names stops long before a programme's worth.
   * Entry-number searches do not count (the route asks `isNameSearch`).
   */
  nameSearch: { name: 'name-search', limit: 60, windowMs: 10 * 60_000, what: 'name searches' },
  /** "Tell me when it is online" (decision 035): a family asks about a few routines, not a programme. */
  onlineAlert: { name: 'online-alert', limit: 10, windowMs: 60 * 60_000, what: 'alert requests' },
  /** A stranger's inbox gets at most three confirmations an hour, whoever asks. */
  onlineAlertPerEmail: {
    name: 'online-alert-email',
    limit: 3,
    windowMs: 60 * 60_000,
    what: 'alert requests for this address',
    key: requestedAddress,
    skip: (req: Request) => requestedAddress(req) === '',
    headers: false,
  },
} satisfies Record<string, LimitRule>;

/** The rule's counts in Redis, shared by every api replica. */
function storeOf({ redis, config }: Deps, rule: LimitRule): RecoveringRedisStore {
  return new RecoveringRedisStore({
    prefix: `${config.QUEUE_PREFIX}:rl:${rule.name}:`,
    sendCommand: (command: string, ...args: string[]) =>
      withRedisTimeout(redis, () => redis.call(command, ...args) as Promise<RedisReply>, 1_500),
  });
}

/** An unreachable Redis is the outage a limit rides through (the request goes on): a warning, not an error. */
function storeLogger(logger: Deps['logger']) {
  return {
    warn: (warning: unknown) => logger.warn({ err: warning }, 'express-rate-limit warning'),
    // Redis's own client reports the outage.
    error: (error: unknown, message?: string) =>
      error instanceof RedisUnavailableError
        ? logger.warn({ err: error }, message)
        : logger.error({ err: error }, message),
  };
}

/** The 429 of a rule: what was limited and when to try again. */
function refuse(res: ServerResponse, rule: LimitRule, resetTime: Date | undefined): void {
  const minutes = Math.max(
    1,
    Math.ceil(((resetTime?.getTime() ?? Date.now() + rule.windowMs) - Date.now()) / 60_000),
  );
  const message = `Too many ${rule.what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  sendJson(res, 429, errorBody(429, message));
}

/**
 * A Redis-backed limiter shared by every api replica. When Redis cannot be reached the request
 * goes through: losing a contact would be worse than a short gap in limiting. It says so in our log,
 * not on the console.
 */
export function rateLimiter(deps: Deps, rule: LimitRule): RequestHandler {
  return rateLimit({
    logger: storeLogger(deps.logger),
    windowMs: rule.windowMs,
    limit: rule.limit,
    standardHeaders: rule.headers === false ? false : 'draft-8',
    legacyHeaders: false,
    passOnStoreError: true,
    // Our keys group IPv6 through addressKey (ipKeyGenerator); the library's check only sees `req.ip`
    // in the function's text and would warn at every start.
    ...(rule.key ? { keyGenerator: rule.key, validate: { keyGeneratorIpFallback: false } } : {}),
    ...(rule.skip ? { skip: rule.skip } : {}),
    store: storeOf(deps, rule),
    handler: (req, res) =>
      refuse(res, rule, (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime),
  });
}

/**
 * A rule counted without express-rate-limit's middleware, for the route answered before Express
 * (decision 039): the same store, Redis keys and window, so it is the limit `rateLimiter` would keep,
 * at a fraction of its cost. It sends no RateLimit headers (a visitor walking names learns nothing
 * from them). Resolves true when it refused the request, having answered it.
 */
export function leanRateLimiter(deps: Deps, rule: LimitRule & { key?: never; skip?: never }) {
  const store = storeOf(deps, rule);
  void store.init({ windowMs: rule.windowMs } as Parameters<RecoveringRedisStore['init']>[0]);
  const log = storeLogger(deps.logger);
  return async (address: string, res: ServerResponse): Promise<boolean> => {
    let count;
    try {
      count = await store.increment(addressKey(address));
    } catch (error) {
      log.error(error, 'express-rate-limit: error from store, allowing request without rate-limiting.');
      return false;
    }
    if (count.totalHits <= rule.limit) return false;
    if (count.resetTime) {
      const seconds = Math.ceil((count.resetTime.getTime() - Date.now()) / 1000);
      res.setHeader('Retry-After', String(Math.max(0, seconds)));
    }
    refuse(res, rule, count.resetTime);
    return true;
  };
}
