import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestEnv } from '../../../../test/support/test-env.ts';
import { adminAgent, createTestApp } from '../../../../test/support/app.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const METRICS_TOKEN = 'metrics-token-for-tests';

describe('ops endpoints', () => {
  const { api } = useTestWorld({ api: true, env: { METRICS_TOKEN } });

  it('serves Prometheus metrics to the bearer of METRICS_TOKEN only', async () => {
    await request(api.app).get('/api/events').expect(200);
    await request(api.app).get('/metrics').expect(401).expect('WWW-Authenticate', 'Bearer');
    await request(api.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}x`).expect(401);
    await request(api.app).get('/metrics').set('Authorization', METRICS_TOKEN).expect(401);

    const { text, headers } = await request(api.app)
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    expect(headers['content-type']).toMatch(/^text\/plain/);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/api\/events",status="200"\} 1$/m,
    );
    expect(text).toMatch(/^queue_jobs\{queue="record-sale",state="waiting"\} 0$/m);
    expect(text).toMatch(/^purchase_status_requests_waiting 0$/m);
  });

  it('labels unknown paths by a fixed name, not by URL', async () => {
    await request(api.app).get('/api/no-such-thing/12345').expect(404);
    const { text } = await request(api.app)
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    expect(text).not.toContain('12345');
    expect(text).toMatch(/route="unmatched",status="404"/);
  });

  it('shows the queue dashboard to the owner only', async () => {
    const visitor = await request(api.app).get('/admin/queues').expect(401);
    expect(visitor.body).toEqual({ message: 'Admin login required', code: 'unauthorized' });
    await request(api.app).get('/admin/queues/api/queues').expect(401);

    const agent = await adminAgent(api.app);
    const page = await agent.get('/admin/queues').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('<base href="/admin/queues/"');
    const queues = await agent.get('/admin/queues/api/queues').expect(200);
    expect(queues.body.queues.map((queue: { name: string }) => queue.name)).toContain('record-sale');
    // Its write actions pass the same cross-site check as every admin write.
    await agent
      .put('/admin/queues/api/queues/record-sale/retry/failed')
      .set('Origin', 'https://evil.example')
      .expect(403);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  it('are not served at all', async () => {
    const env = await createTestEnv();
    const api = createTestApp(env);
    try {
      await request(api.app).get('/metrics').set('Authorization', 'Bearer anything').expect(404);
    } finally {
      await api.close();
      await env.cleanup();
    }
  });
});
