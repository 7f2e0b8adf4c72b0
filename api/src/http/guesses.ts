import type { Request } from 'express';
import { withRedisTimeout } from '@app/shared/redis';
import type { JobPayload } from '@app/shared/queue';
import type { Deps } from '../deps.ts';
import { HttpError } from './errors.ts';
import { addressKey } from './client-address.ts';

export interface GuessRule {
  /** Part of the Redis keys and of the owner's e-mail. */
  name: JobPayload<'security-alert'>['what'];
  /** Wrong guesses in the window, from all addresses together, before the slowdown starts. */
  threshold: number;
  windowMs: number;
  /** What is guessed, in the 429's words: "passwords" unless said. */
  noun?: string;
}

export interface BoundGuard {
  check(): Promise<void>;
  failed(): Promise<void>;
}

/** The first wait past the threshold; each further wrong guess doubles it, up to MAX_WAIT_MS. */
const FIRST_WAIT_MS = 1_000;
const MAX_WAIT_MS = 15 * 60_000;

export const guessRules = {
  login: { name: 'admin-login', threshold: 50, windowMs: 3600_000 },
  videoPassword: { name: 'video-password', threshold: 50, windowMs: 3600_000 },
  /**
   * Showcase access codes, all showcases together (issue 28: limited like the video password): one
   * count, so the slowdown names no showcase, and a code a whole studio shares is not worn down by
   * many addresses guessing.
   */
  accessCode: { name: 'showcase-access-code', threshold: 50, windowMs: 3600_000, noun: 'access codes' },
} satisfies Record<string, GuessRule>;

/**
 * Wrong passwords counted across every address (issue 14): the per-address limits stop one guesser,
 * this stops one with many addresses. Past the threshold each wrong guess makes the next one wait
 * longer (exponential), and the owner gets one e-mail. Only addresses that have guessed wrong in the
 * window wait, so the owner, at an address that has not failed, still gets in. Redis failures let
 * the guess through, like the per-address limits (scrypt still brakes it).
 */
export class GuessGuard {
  constructor(
    private readonly deps: Pick<Deps, 'redis' | 'config' | 'producer' | 'logger'>,
    private readonly rule: GuessRule,
  ) {}

  /** The guard bound to one request and subject (a video's id), for code that only checks passwords. */
  about(req: Request, subject = ''): BoundGuard {
    return { check: () => this.check(req, subject), failed: () => this.failed(req, subject) };
  }

  private keys(req: Request, subject: string) {
    const base = `${this.deps.config.QUEUE_PREFIX}:guesses:${this.rule.name}:${subject}`;
    return {
      count: `${base}:count`,
      until: `${base}:until`,
      alerted: `${base}:alerted`,
      address: `${base}:failed:${addressKey(req.ip)}`,
    };
  }

  /** Throws 429 with Retry-After while the slowdown holds and this address has guessed wrong. */
  async check(req: Request, subject = ''): Promise<void> {
    const keys = this.keys(req, subject);
    const found = await this.redis(() => this.deps.redis.mget(keys.until, keys.address));
    const waitMs = Number(found?.[0] ?? 0) - Date.now();
    if (waitMs > 0 && found?.[1]) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new HttpError(
        429,
        `Too many wrong ${this.rule.noun ?? 'passwords'}. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        { headers: { 'Retry-After': String(seconds) } },
      );
    }
  }

  /** Counts a wrong guess; past the threshold, sets the next wait and tells the owner once. */
  async failed(req: Request, subject = ''): Promise<void> {
    const { redis, producer } = this.deps;
    const { threshold, windowMs } = this.rule;
    const keys = this.keys(req, subject);
    const replies = await this.redis(() =>
      redis
        .multi()
        .incr(keys.count)
        .pexpire(keys.count, windowMs, 'NX')
        .set(keys.address, '1', 'PX', windowMs)
        .exec(),
    );
    const failures = Number(replies?.[0]?.[1] ?? 0);
    if (failures <= threshold) return;
    const waitMs = Math.min(FIRST_WAIT_MS * 2 ** (failures - threshold - 1), MAX_WAIT_MS);
    await this.redis(() => redis.set(keys.until, String(Date.now() + waitMs), 'PX', windowMs));
    const first = await this.redis(() => redis.set(keys.alerted, '1', 'PX', windowMs, 'NX'));
    if (first !== 'OK') return;
    this.deps.logger.warn({ what: this.rule.name, subject, failures }, 'wrong passwords from many addresses');
    await producer
      .enqueue('security-alert', {
        what: this.rule.name,
        ...(subject ? { videoId: subject } : {}),
        failures,
        windowMinutes: windowMs / 60_000,
      })
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'security-alert not queued'));
  }

  private redis<T>(command: () => Promise<T>): Promise<T | undefined> {
    return withRedisTimeout(this.deps.redis, command, 1_500).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, what: this.rule.name }, 'wrong-guess count unavailable');
      return undefined;
    });
  }
}
