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
