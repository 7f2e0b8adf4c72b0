import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../../../test/support/test-env.ts';
import { closedPort } from '../../../test/support/services.ts';
import { parseConfig } from '@app/shared/config';
import { createLogger } from '@app/shared/logger';
import { createApp } from '../app.ts';
import { closeDeps, createDeps } from '../deps.ts';
import { useTestWorld } from '../../../test/support/world.ts';

const { env, api } = useTestWorld({ api: true });

describe('error mapping', () => {
  it('answers malformed JSON with 400 JSON', async () => {
    const response = await request(api.app)
      .post('/api/admin/login')
      .set('Content-Type', 'application/json')
      .send('{"password": ')
      .expect(400);
    expect(response.body).toEqual({ message: 'Malformed JSON body', code: 'invalid_input' });
  });

  it('answers a body over 1 MB with 413 JSON', async () => {
    const response = await request(api.app)
      .post('/api/admin/login')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ password: 'x'.repeat(1_100_000) }))
      .expect(413);
    expect(response.body).toEqual({ message: 'Request body is too large', code: 'too_large' });
  });

  it('answers an unknown /api route with 404 JSON', async () => {
    const response = await request(api.app).get('/api/no-such-thing').expect(404);
    expect(response.headers['content-type']).toMatch(/json/);
    expect(response.body).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('sets security headers and a request id', async () => {
    const response = await request(api.app).get('/healthz').expect(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/.+/);
  });
});

describe('readiness', () => {
  it('is 200 when PostgreSQL and Redis answer, and says whether mail goes out', async () => {
    const response = await request(api.app).get('/readyz').expect(200);
    expect(response.body.checks).toEqual({ postgres: 'ok', redis: 'ok', mail: 'not configured' });

    for (const [mail, expected] of [
      [{ SMTP_URL: 'smtp://127.0.0.1:2525' }, 'ok'],
      [{ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_DISABLED: 'true' }, 'not configured'],
    ] as const) {
      const deps = createDeps(
        parseConfig({ ...env.env, ...mail }),
        createLogger({ name: 'test', level: 'silent' }),
      );
      try {
        const ready = await request(createApp(deps)).get('/readyz').expect(200);
        expect(ready.body.checks.mail).toBe(expected);
      } finally {
        await closeDeps(deps);
      }
    }
  });

  it('is 503 when Redis is unreachable, and PostgreSQL down gives 503 JSON', async () => {
    const config = parseConfig({ ...env.env, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const deps = createDeps(config, createLogger({ name: 'test', level: 'silent' }));
    try {
      const response = await request(createApp(deps)).get('/readyz').expect(503);
      expect(response.body.checks).toMatchObject({ postgres: 'ok', redis: 'unreachable' });
    } finally {
      await closeDeps(deps);
    }

    const noDb = parseConfig({
      ...env.env,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/x`,
    });
    const dbDeps = createDeps(noDb, createLogger({ name: 'test', level: 'silent' }));
    try {
      const app = createApp(dbDeps);
      const ready = await request(app).get('/readyz').expect(503);
      expect(ready.body.checks.postgres).toBe('unreachable');
      // A real session cookie makes the session store read PostgreSQL.
      const login = await request(api.app)
        .post('/api/admin/login')
        .send({ password: TEST_ADMIN_PASSWORD })
        .expect(204);
      const cookie = String(login.headers['set-cookie']).split(';')[0]!;
      const response = await request(app).get('/api/admin/jobs').set('Cookie', cookie).expect(503);
      expect(response.body).toEqual({
        message: 'Service temporarily unavailable, please try again shortly',
        code: 'unavailable',
      });
    } finally {
      await closeDeps(dbDeps);
    }
  });
});
