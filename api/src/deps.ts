import type { Redis } from 'ioredis';
import type { Config } from '@app/shared/config';
import { createDatabase, type Database } from '@app/shared/db';
import { createLogger, type Logger } from '@app/shared/logger';
import { createProducer, createRedis, type Producer } from '@app/shared/queue';
import { createStorage, type Storage } from '@app/shared/storage';
import { createStripe, type Stripe } from '@app/shared/stripe';
import { createHttpMetrics, gaugeOf, type HttpMetrics } from './http/metrics.ts';
import { PublicCache } from './site/public-cache.ts';
import { PurchaseWaiters } from './features/purchases/purchase-waiters.ts';
import { searchMissesWritten } from './features/search-misses/search-miss-log.ts';

/** Everything a request handler may touch. Tests build their own with a per-file database and prefix. */
export interface Deps extends Database {
  config: Config;
  logger: Logger;
  redis: Redis;
  producer: Producer;
  storage: Storage;
  /** Null when no STRIPE_SECRET_KEY is set: checkout then answers 503 and the site offers other ways to pay. */
  stripe: Stripe | null;
  metrics: HttpMetrics;
  /** The public lists, kept between requests; `changed()` after writing what they show. */
  publicCache: PublicCache;
  /** Buyers' status requests held until their purchase settles (decision 014). */
  purchaseWaiters: PurchaseWaiters;
}

export function createDeps(
  config: Config,
  logger = createLogger({ name: 'api', level: config.LOG_LEVEL }),
): Deps {
  const database = createDatabase(config.DATABASE_URL, { max: 20 });
  const redis = createRedis(config.REDIS_URL, 'client');
  const metrics = createHttpMetrics();
  // A connection in subscriber mode can send nothing else, so the waiters get their own.
  const purchaseWaiters = new PurchaseWaiters(createRedis(config.REDIS_URL, 'client'), config.QUEUE_PREFIX);
  gaugeOf(
    metrics,
    'purchase_status_requests_waiting',
    'Status requests held until their purchase settles',
    () => purchaseWaiters.size,
  );
  return {
    ...database,
    config,
    logger,
    redis,
    producer: createProducer(redis, config.QUEUE_PREFIX),
    storage: createStorage(config),
    stripe: createStripe(config),
    metrics,
    publicCache: new PublicCache(redis, config.QUEUE_PREFIX, logger, (method, route, status, seconds) =>
      metrics.requests.observe({ method, route, status: String(status) }, seconds),
    ),
    purchaseWaiters,
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  deps.purchaseWaiters.close();
  // Searches that found nothing, counted in memory a moment before their write (decision 034).
  await searchMissesWritten(deps.db);
  await deps.producer.close().catch(() => {});
  deps.redis.disconnect();
  await deps.pool.end();
}
