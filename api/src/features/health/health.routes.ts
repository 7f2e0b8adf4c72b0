import { Router } from 'express';
import { mailConfigured } from '@app/shared/config';
import type { Deps } from '../../deps.ts';
import { pingDatabase } from './health.service.ts';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref()),
  ]);
}

export function healthRoutes({ config, db, redis }: Deps): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const [database, queue] = await Promise.allSettled([
      withTimeout(pingDatabase(db), 2_000),
      withTimeout(redis.ping(), 2_000),
    ]);
    const checks = {
      postgres: database.status === 'fulfilled' ? 'ok' : 'unreachable',
      redis: queue.status === 'fulfilled' ? 'ok' : 'unreachable',
      // Informational: without mail the site still works, but receipts and enquiries are only logged.
      mail: mailConfigured(config) ? 'ok' : 'not configured',
    };
    const ready = checks.postgres === 'ok' && checks.redis === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks });
  });

  return router;
}
