// Drill 6: hostile input against every route the api registers, as a visitor and as the owner.
// Every answer is a 4xx (or a harmless 2xx for reads) with a JSON message: never a 5xx, never a
// stack trace, and refused requests change nothing in the database.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { adminAgent } from '../support/app.ts';
import { createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

const { env, api } = useTestWorld({
  api: true,
  // Payments configured (signatures are checked locally; no Stripe call is made by refused requests).
  env: { STRIPE_SECRET_KEY: 'sk_test_drill', STRIPE_WEBHOOK_SECRET: 'whsec_drill' },
  seed: (env) => createVideo(env.database.db, { priceCents: 500 }),
});

interface RouteEntry {
  method: string;
  path: string;
}

function enumerateRoutes(router: { stack: Array<Record<string, any>> }): RouteEntry[] {
  const found: RouteEntry[] = [];
  for (const layer of router.stack) {
    if (layer.route) {
      const paths: unknown[] = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        if (typeof path !== 'string') continue;
        for (const method of Object.keys(layer.route.methods))
          found.push({ method: method.toUpperCase(), path });
      }
    } else if (layer.handle?.stack && !layer.path) {
      found.push(...enumerateRoutes(layer.handle));
    }
  }
  return found;
}

const oddSegments = [
  'x1',
  '%00',
  '%ff%fe',
  '..%2F..%2Fetc%2Fpasswd',
  '%E2%80%AE',
  'a'.repeat(5_000),
  '%25%32%65',
  '😀',
  '-1',
  '1e309',
  'null',
];

/** Concrete URLs for a route pattern: each parameter (and each `*splat`) replaced by odd values. */
function urls(path: string): string[] {
  return oddSegments.map((segment) =>
    path.replace(/:\w+/g, segment).replace(/\*\w+/g, `${segment}/${segment}`),
  );
}

const hostileBodies = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'videoId', 'password', 'email', 'title', 'date'),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  fc.record(
    {
      firstName: fc.string(),
      lastName: fc.string(),
      email: fc.string(),
      message: fc.string({ maxLength: 6_000 }),
    },
    { requiredKeys: [] },
  ),
  fc.constant({ title: 'x'.repeat(200_000), tags: Array.from({ length: 10_000 }, () => 't') }),
  fc.constant(JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {"polluted": 1}}}')),
);

type Agent = ReturnType<typeof request> | Awaited<ReturnType<typeof adminAgent>>;
/** A request of the route's method from a visitor or the owner, passing the Origin check. */
const call = (agent: Agent, method: string, url: string) => {
  const verb = method.toLowerCase() as 'post';
  return (agent as ReturnType<typeof request>)[verb](url).set('Origin', 'http://localhost:3000');
};

const rawBodies = [
  '{',
  '{"a":',
  'null',
  '[]',
  '"string"',
  '{"a":1}}',
  '\u0000',
  Buffer.from([0xff, 0xfe, 0xfd]).toString('latin1'),
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
];

async function tableCounts(): Promise<Record<string, number>> {
  const result = await env.database.db.execute<{ relname: string; count: number }>(sql`
    select c.relname, (xpath('/row/c/text()', query_to_xml('select count(*) as c from public.' || quote_ident(c.relname), false, true, '')))[1]::text::int as count
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and c.relname not in ('sessions', '__drizzle_migrations')`);
  return Object.fromEntries(result.rows.map((row) => [row.relname, row.count]));
}

describe('hostile input', () => {
  it(
    'never gets a 5xx or a stack trace, and refused writes change nothing',
    { timeout: 180_000 },
    async () => {
      const routes = enumerateRoutes(api.app.router as never).filter((route) =>
        route.path.startsWith('/api/'),
      );
      expect(routes.length).toBeGreaterThan(30);
      const owner = await adminAgent(api.app);
      const before = await tableCounts();
      let tried = 0;
      const problems: string[] = [];

      const check = (label: string, response: request.Response, write: boolean) => {
        tried++;
        const { status } = response;
        const text = response.text ?? '';
        if (status >= 500) problems.push(`${label} → ${status} ${text.slice(0, 200)}`);
        if (/at \w+ \(|node_modules|\.ts:\d+|select .* from/i.test(text))
          problems.push(`${label} leaked internals: ${text.slice(0, 200)}`);
        if (status >= 400 && !/json/.test(response.headers['content-type'] ?? ''))
          problems.push(`${label} → ${status} without JSON`);
        if (status >= 400 && typeof response.body?.message !== 'string')
          problems.push(`${label} → ${status} without a message`);
        if (write && status < 300 && !label.includes('logout'))
          problems.push(`${label} accepted hostile input (${status})`);
      };

      const bodies = fc.sample(hostileBodies, { numRuns: 12, seed: 42 });
      for (const route of routes) {
        const write = route.method !== 'GET';
        for (const agent of [request(api.app), owner]) {
          for (const url of urls(route.path)) {
            check(
              `${route.method} ${url.slice(0, 80)}`,
              await call(agent, route.method, url).send(write ? {} : undefined),
              false,
            );
          }
          if (!write) continue;
          const url = urls(route.path)[0]!;
          for (const body of bodies) {
            const response = await call(agent, route.method, url)
              .set('Content-Type', 'application/json')
              .send(JSON.stringify(body));
            check(
              `${route.method} ${route.path} ${JSON.stringify(body).slice(0, 60)}`,
              response,
              !route.path.includes('logout'),
            );
          }
          for (const raw of rawBodies) {
            const response = await call(agent, route.method, url)
              .set('Content-Type', 'application/json')
              .send(raw);
            check(
              `${route.method} ${route.path} raw ${JSON.stringify(raw.slice(0, 20))}`,
              response,
              !route.path.includes('logout'),
            );
          }
        }
      }

      // A 10 MB body, an odd charset and an odd content encoding.
      const huge = await request(api.app)
        .post('/api/contacts')
        .set('Content-Type', 'application/json')
        .send(`{"message":"${'x'.repeat(10 * 1024 * 1024)}"}`);
      check('10 MB body', huge, true);
      expect(huge.status).toBe(413);
      check(
        'charset',
        await request(api.app)
          .post('/api/contacts')
          .set('Content-Type', 'application/json; charset=ibm-1047')
          .send('{}'),
        true,
      );
      check(
        'encoding',
        await request(api.app)
          .post('/api/contacts')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'x-nonsense')
          .send('{}'),
        true,
      );

      expect(problems).toEqual([]);
      expect(await tableCounts()).toEqual(before);
      console.info(
        `hostile-input drill: ${tried} requests against ${routes.length} routes, no 5xx, nothing changed`,
      );
    },
  );
});
