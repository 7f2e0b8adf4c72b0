import type { Redis } from 'ioredis';
import type { Config } from '@app/shared/config';
import { createDatabase, type Database } from '@app/shared/db';
import { createLogger, type Logger } from '@app/shared/logger';
import { createProducer, createRedis, type Producer } from '@app/shared/queue';
import { createStorage, type Storage } from '@app/shared/storage';
import { createStripe, type Stripe } from '@app/shared/stripe';

/** Everything a request handler may touch. Tests build their own with a per-file database and prefix. */
export interface Deps extends Database {
  config: Config;
  logger: Logger;
  redis: Redis;
  producer: Producer;
  storage: Storage;
  /** Null when no STRIPE_SECRET_KEY is set: checkout then answers 503 and the site offers other ways to pay. */
  stripe: Stripe | null;
}

export function createDeps(
  config: Config,
  logger = createLogger({ name: 'api', level: config.LOG_LEVEL }),
): Deps {
  const database = createDatabase(config.DATABASE_URL, { max: 20 });
  const redis = createRedis(config.REDIS_URL, 'client');
  return {
    ...database,
    config,
    logger,
    redis,
    producer: createProducer(redis, config.QUEUE_PREFIX),
    storage: createStorage(config),
    stripe: createStripe(config),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.producer.close().catch(() => {});
  deps.redis.disconnect();
  await deps.pool.end();
}
