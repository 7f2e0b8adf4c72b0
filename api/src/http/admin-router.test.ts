import type { Router } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../../../test/support/test-env.ts';
import { adminAgent, createTestApp } from '../../../test/support/app.ts';
import { adminSessionSchema, jobListSchema } from '@app/shared/schemas';
import { LOCAL_UPLOADS_PATH } from '@app/shared/storage';
import { ADMIN_PREFIXES, PUBLIC_ADMIN_ROUTES } from './admin-router.ts';
import { useTestWorld } from '../../../test/support/world.ts';

const { env, api } = useTestWorld({ api: true });

interface RouteEntry {
  method: string;
  path: string;
}

/** Every method+path registered on the app, including routers mounted without a path. */
function enumerateRoutes(router: Router): RouteEntry[] {
  const found: RouteEntry[] = [];
  for (const layer of (router as unknown as { stack: Array<Record<string, any>> }).stack) {
    if (layer.route) {
      const paths: unknown[] = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      // A RegExp route (the web app's page fallback) is listed by its source text.
      for (const path of paths.map(String)) {
        for (const method of Object.keys(layer.route.methods))
          found.push({ method: method.toUpperCase(), path });
      }
    } else if (layer.handle?.stack && layer.matchers?.[0]?.('/') !== false && !layer.path) {
      found.push(...enumerateRoutes(layer.handle));
    }
  }
  return found;
}

/** A concrete URL for a route pattern (`:id` → a value). */
/** Queries a route cannot answer without (a report's period). */
const requiredQuery: Record<string, string> = {
  '/api/admin/gst/report': '?from=2026-04-01&to=2026-09-30',
  '/api/admin/gst/report.csv': '?from=2026-04-01&to=2026-09-30',
  '/api/admin/gst/xero.csv': '?from=2026-04-01&to=2026-09-30',
};

const concrete = (path: string) =>
  path.replace(/:(\w+)/g, (_m, name: string) => (name === 'queue' ? 'count-video-stat' : 'x1')) +
  (requiredQuery[path] ?? '');

const isAdminPath = (path: string) =>
  ADMIN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
const isPublicAdminRoute = ({ method, path }: RouteEntry) =>
  (PUBLIC_ADMIN_ROUTES as readonly string[]).includes(`${method} ${path}`);

describe('admin routes', () => {
  it('are all refused without a session, and the list is not empty', async () => {
    const routes = enumerateRoutes(api.app.router).filter(
      (route) => isAdminPath(route.path) && !isPublicAdminRoute(route),
    );
    expect(routes.length).toBeGreaterThanOrEqual(4);
    for (const route of routes) {
      const method = route.method.toLowerCase() as 'get';
      const response = await request(api.app)[method](concrete(route.path)).send({});
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(response.body.message).toBe('Admin login required');
    }
  });

  it('only ever registers admin routes under the admin prefixes, so none can be unprotected', () => {
    const all = enumerateRoutes(api.app.router);
    const adminLooking = all.filter((route) => /admin|sync-order-links/.test(route.path));
    for (const route of adminLooking)
      expect(isAdminPath(route.path), `${route.method} ${route.path}`).toBe(true);
  });

  it('refuse an unknown path under /api/admin without a session too', async () => {
    await request(api.app).get('/api/admin/anything-new').expect(401);
  });

  it('work with a session', async () => {
    const agent = await adminAgent(api.app);
    const routes = enumerateRoutes(api.app.router).filter(
      (route) => isAdminPath(route.path) && !isPublicAdminRoute(route) && route.method === 'GET',
    );
    expect(routes.length).toBeGreaterThanOrEqual(4);
    for (const route of routes) {
      const response = await agent.get(concrete(route.path));
      // A route with a parameter is asked about a made-up one (`concrete`), which does not exist; the
      // local storage's multipart requests also need the link's signature, which a session is not.
      const expected = route.path.startsWith(LOCAL_UPLOADS_PATH) ? 403 : /[:*]/.test(route.path) ? 404 : 200;
      expect(response.status, `${route.method} ${route.path}`).toBe(expected);
    }
    jobListSchema.parse((await agent.get('/api/admin/jobs').expect(200)).body);
  });
});

describe('admin login', () => {
  it('reports the session without ever answering 401', async () => {
    const anonymous = await request(api.app).get('/api/admin/session').expect(200);
    expect(adminSessionSchema.parse(anonymous.body)).toEqual({ authenticated: false });
    const agent = await adminAgent(api.app);
    expect(adminSessionSchema.parse((await agent.get('/api/admin/session').expect(200)).body)).toEqual({
      authenticated: true,
    });
  });

  it('sets an httpOnly, SameSite session cookie only on success', async () => {
    const wrong = await request(api.app).post('/api/admin/login').send({ password: 'nope' }).expect(401);
    expect(wrong.body).toEqual({ message: 'Incorrect password', code: 'unauthorized' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const right = await request(api.app)
      .post('/api/admin/login')
      .send({ password: TEST_ADMIN_PASSWORD })
      .expect(204);
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('logout ends the server session', async () => {
    const agent = await adminAgent(api.app);
    await agent.post('/api/admin/logout').expect(204);
    await agent.get('/api/admin/jobs').expect(401);
    expect((await agent.get('/api/admin/session')).body).toEqual({ authenticated: false });
  });

  it('refuses a cross-site write even with a valid session', async () => {
    const agent = await adminAgent(api.app);
    const response = await agent.post('/api/admin/logout').set('Origin', 'https://evil.example').expect(403);
    expect(response.body.message).toBe('Cross-site request refused');
    await agent.get('/api/admin/jobs').expect(200);
  });

  it('rejects wrong types with 400 JSON', async () => {
    const response = await request(api.app).post('/api/admin/login').send({ password: 12345 }).expect(400);
    expect(response.body.message).toMatch(/password/);
    expect(response.body.issues[0].path).toBe('password');
  });

  it('limits attempts per IP: the eleventh within 15 minutes gets 429', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++) {
      await request(api.app)
        .post('/api/admin/login')
        .set('X-Forwarded-For', ip)
        .send({ password: 'guess' })
        .expect(401);
    }
    const limited = await request(api.app)
      .post('/api/admin/login')
      .set('X-Forwarded-For', ip)
      .send({ password: TEST_ADMIN_PASSWORD })
      .expect(429);
    expect(limited.body.message).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('ends a session made before the admin password changed', async () => {
    const login = await request(api.app)
      .post('/api/admin/login')
      .send({ password: TEST_ADMIN_PASSWORD })
      .expect(204);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    await request(api.app).get('/api/admin/jobs').set('Cookie', cookie).expect(200);
    // The same site restarted with a new password (same database, same secret).
    const rotated = createTestApp({
      ...env,
      config: { ...env.config, ADMIN_PASSWORD: 'a brand new admin password' },
    });
    try {
      await request(rotated.app).get('/api/admin/jobs').set('Cookie', cookie).expect(401);
      expect((await request(rotated.app).get('/api/admin/session').set('Cookie', cookie)).body).toEqual({
        authenticated: false,
      });
    } finally {
      await rotated.close();
    }
  });

  it('ends a session 24 hours after its login, however active it was', async () => {
    const agent = await adminAgent(api.app);
    await agent.get('/api/admin/jobs').expect(200);
    await env.database.pool.query(
      `update sessions set sess = jsonb_set(sess::jsonb, '{loggedInAt}', to_jsonb($1::bigint))::json`,
      [Date.now() - 24 * 3600 * 1000 - 1],
    );
    await agent.get('/api/admin/jobs').expect(401);
  });
});
