import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { collectDefaultMetrics, Gauge } from 'prom-client';
import { jobNames } from '@app/shared/queue';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

const queueStates = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/** Compares digests, so neither the token's content nor its length leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Prometheus metrics at GET /metrics: process, HTTP requests by route, and queue depths. Only with
 * METRICS_TOKEN set (else 404), and only for `Authorization: Bearer <METRICS_TOKEN>`.
 */
export function metricsRoutes({ config, producer, logger, metrics }: Deps): Router {
  const router = Router();
  const token = config.METRICS_TOKEN;
  if (!token) {
    router.get('/metrics', () => {
      throw notFound();
    });
    return router;
  }

  const { registry, requests } = metrics;
  collectDefaultMetrics({ register: registry });
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

  router.use((req, res, next) => {
    const end = requests.startTimer({ method: req.method });
    res.on('finish', () => {
      // The route pattern, not the URL, so ids do not explode the number of series.
      const route = req.route?.path ? String(req.route.path) : 'unmatched';
      end({ route, status: String(res.statusCode) });
    });
    next();
  });

  router.get('/metrics', async (req, res) => {
    const [scheme, given] = (req.get('authorization') ?? '').split(' ');
    if (scheme !== 'Bearer' || !given || !sameToken(given, token))
      throw new HttpError(401, 'Metrics need the bearer token', { 'WWW-Authenticate': 'Bearer' });
    res.set('Content-Type', registry.contentType).send(await registry.metrics());
  });
  return router;
}
