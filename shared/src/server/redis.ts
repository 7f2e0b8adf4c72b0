import { Redis } from 'ioredis';

/**
 * `worker`: blocking BullMQ connections, which must retry forever (maxRetriesPerRequest null).
 * `client`: the api's producer and rate limiter: a command waits at most 1.5 s, so a request never
 * hangs on a Redis outage (commands issued while still connecting at start-up simply wait).
 */
export function createRedis(url: string, role: 'worker' | 'client'): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    commandTimeout: role === 'client' ? 1_500 : undefined,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  });
  // Connection errors are expected during an outage; ioredis reconnects on its own.
  redis.on('error', () => {});
  return redis;
}

export class RedisUnavailableError extends Error {}

/** ioredis's ways of saying the connection, not the command, failed. */
function isConnectionLoss(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return (
    name === 'MaxRetriesPerRequestError' ||
    (typeof message === 'string' &&
      /Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET/.test(message))
  );
}

/**
 * Redis commands wait in ioredis's queue while it reconnects; a request must not wait with them.
 * When the connection is known to be lost (not merely still starting) the command fails at once.
 */
export function withRedisTimeout<T>(redis: Redis, command: () => Promise<T>, ms = 2_000): Promise<T> {
  if (['reconnecting', 'close', 'end'].includes(redis.status)) {
    return Promise.reject(new RedisUnavailableError(`Redis is ${redis.status}`));
  }
  const promise = command().catch((error: unknown) => {
    throw isConnectionLoss(error)
      ? new RedisUnavailableError('Redis connection lost', { cause: error })
      : error;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
