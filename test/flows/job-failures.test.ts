import { describe, expect, it } from 'vitest';
import { adminAgent } from '../support/app.ts';
import { useTestWorld } from '../support/world.ts';
import { expectErrorLogs } from '../support/guards.ts';

let attempts = 0;
const { api } = useTestWorld({
  api: true,
  worker: {
    // Fails its first attempt, as a transient outage would, then succeeds.
    'count-video-stat': async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('database briefly unavailable');
      return 'done';
    },
  },
});

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('job failures', () => {
  it('retries a job that throws, with backoff, and shows the failed attempt in the jobs API', async () => {
    const agent = await adminAgent(api.app);
    const { jobId } = await api.deps.producer.enqueue('count-video-stat', {});
    const url = `/api/admin/jobs/count-video-stat/${jobId}`;

    const retrying = await waitFor(
      async () => (await agent.get(url)).body,
      (job) => job.attemptsMade === 1,
    );
    expect(retrying.failedReason).toBe('database briefly unavailable');
    expect(['delayed', 'waiting', 'active', 'completed']).toContain(retrying.state);

    const finished = await waitFor(
      async () => (await agent.get(url)).body,
      (job) => job.state === 'completed',
    );
    expect(finished.attemptsMade).toBe(2);
    expect(finished.result).toBe('done');
    expect(Date.parse(finished.finishedAt) - Date.parse(finished.createdAt)).toBeGreaterThanOrEqual(900);
  });

  it('fails a job with an invalid payload at once, lists it as failed, and can retry it', async () => {
    expectErrorLogs(/job payload invalid|Invalid payload/);
    const agent = await adminAgent(api.app);
    const job = await api.deps.producer
      .queue('count-video-stat')
      .add('count-video-stat', { batch: 'not-a-number' });
    const failed = await waitFor(
      async () => (await agent.get('/api/admin/jobs?state=failed')).body.jobs as Array<{ id: string }>,
      (jobs) => jobs.some((listed) => listed.id === job.id),
    );
    const listed = failed.find((entry) => entry.id === job.id) as Record<string, unknown>;
    expect(listed).toMatchObject({ queue: 'count-video-stat', state: 'failed', attemptsMade: 1 });
    expect(listed.failedReason).toMatch(/Invalid payload/);

    const retried = await agent.post(`/api/admin/jobs/count-video-stat/${job.id}/retry`).expect(200);
    expect(retried.body.state).toBe('waiting');
    await agent.post(`/api/admin/jobs/count-video-stat/${job.id}/retry`).expect((res) => {
      expect([200, 409]).toContain(res.status);
    });
    await agent.get('/api/admin/jobs/count-video-stat/no-such-job').expect(404);
    await agent.get('/api/admin/jobs/no-such-queue/1').expect(404);
    await agent.get('/api/admin/jobs?state=bogus').expect(400);
  });
});
