import type { Router } from 'express';
import { z } from 'zod';
import { jobNames } from '@app/shared/queue';
import type { Deps } from '../../deps.ts';
import { getJob, jobStates, listJobs, queueOrThrow, retryJob } from './jobs.service.ts';

const listQuerySchema = z.object({
  queue: z.enum(jobNames as [string, ...string[]]).optional(),
  state: z.enum(jobStates).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const jobParamsSchema = z.object({ queue: z.string(), id: z.string().min(1).max(200) });

export function registerJobRoutes(router: Router, deps: Deps): void {
  router.get('/api/admin/jobs', async (req, res) => {
    const filter = listQuerySchema.parse(req.query);
    const jobs = await listJobs(deps, {
      ...filter,
      queue: filter.queue ? queueOrThrow(filter.queue) : undefined,
    });
    res.set('Cache-Control', 'no-store').json({ jobs, queues: jobNames });
  });

  router.get('/api/admin/jobs/:queue/:id', async (req, res) => {
    const { queue, id } = jobParamsSchema.parse(req.params);
    res.set('Cache-Control', 'no-store').json(await getJob(deps, queueOrThrow(queue), id));
  });

  router.post('/api/admin/jobs/:queue/:id/retry', async (req, res) => {
    const { queue, id } = jobParamsSchema.parse(req.params);
    res.json(await retryJob(deps, queueOrThrow(queue), id));
  });
}
