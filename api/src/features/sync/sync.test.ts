import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@app/shared/config';
import { syncRuns } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { syncRunsResponseSchema } from '@app/shared/schemas';
import { createTestEnv, TEST_ADMIN_PASSWORD, type TestEnv } from '../../../../test/support/test-env.ts';
import { createTestApp, type TestApp } from '../../../../test/support/app.ts';
import { createApp } from '../../app.ts';
import { closeDeps, createDeps } from '../../deps.ts';

// The sync's own flow (trigger, job, history) is tested in worker/src/jobs/sync-order-links.test.ts.
describe('sync history while Redis is away', () => {
  let env: TestEnv;
  let api: TestApp;

  beforeAll(async () => {
    env = await createTestEnv({ ORDER_LINKS_CSV: '/nonexistent.csv' });
    api = createTestApp(env);
  });
  afterAll(async () => {
    await api.close();
    await env.cleanup();
  });

  it('still answers from the database, a run marked running standing for the queue', async () => {
    await env.database.db.insert(syncRuns).values([
      { jobId: 'sync-order-links-1', trigger: 'schedule', status: 'succeeded', finishedAt: new Date() },
      { jobId: 'sync-order-links-2', trigger: 'admin' },
    ]);
    // Log in through the healthy app; the session lives in PostgreSQL, so the cookie works on both.
    const login = await request(api.app)
      .post('/api/admin/login')
      .send({ password: TEST_ADMIN_PASSWORD })
      .expect(204);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const deps = createDeps(
      parseConfig({ ...env.env, REDIS_URL: 'redis://127.0.0.1:1' }),
      createLogger({ name: 'test', level: 'silent' }),
    );
    try {
      const app = createApp(deps);
      const response = await request(app).get('/api/admin/sync-runs').set('Cookie', cookie).expect(200);
      const status = syncRunsResponseSchema.parse(response.body);
      expect(status).toMatchObject({ configured: true, running: true, progress: null, job: null });
      expect(status.runs.map((run) => run.trigger)).toEqual(['admin', 'schedule']);
      // Queuing needs Redis: the press is refused with 503, not left hanging.
      await request(app)
        .post('/api/sync-order-links')
        .set('Cookie', cookie)
        .set('Origin', 'http://localhost:3000')
        .expect(503);
    } finally {
      await closeDeps(deps);
    }
  });
});
