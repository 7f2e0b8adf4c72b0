import { createHash, timingSafeEqual } from 'node:crypto';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from './logger.ts';
import { jobNames, type Producer } from './queue/index.ts';

// What the api's and the worker's /metrics have in common: the token check and the queue depths.

const queueStates = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/**
 * `Authorization: Bearer <token>`, compared by digest so neither the token's content nor its length
 * leaks through timing.
 */
export function bearerTokenMatches(authorization: string | undefined, token: string): boolean {
  const [scheme, given] = (authorization ?? '').split(' ');
  if (scheme !== 'Bearer' || !given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** `queue_jobs{queue, state}`, read from Redis at each scrape. */
export function registerQueueDepthGauge(registry: Registry, producer: Producer, logger: Logger): void {
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        jobNames.map(async (name) => {
          const counts = await producer.queue(name).getJobCounts(...queueStates);
          for (const state of queueStates) this.set({ queue: name, state }, counts[state] ?? 0);
        }),
      ).catch((error: unknown) => logger.warn({ err: error }, 'queue metrics unavailable'));
    },
  });
}
