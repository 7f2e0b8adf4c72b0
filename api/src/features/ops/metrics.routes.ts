import { Router } from 'express';
import { collectDefaultMetrics } from 'prom-client';
import { bearerTokenMatches, registerQueueDepthGauge } from '@app/shared/metrics';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';

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
  registerQueueDepthGauge(registry, producer, logger);

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
    if (!bearerTokenMatches(req.get('authorization'), token))
      throw new HttpError(401, 'Metrics need the bearer token', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    res.set('Content-Type', registry.contentType).send(await registry.metrics());
  });
  return router;
}
