import { eq } from 'drizzle-orm';
import { contactEventTypeLabel } from '@app/shared/constants';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contacts } from '@app/shared/db';
import { adminContactSchema } from '@app/shared/schemas';
import { startOutageProxy, type OutageProxy } from '../../../../test/support/tcp-proxy.ts';
import { TEST_REDIS_URL } from '../../../../test/support/services.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { expectErrorLogs } from '../../../../test/support/guards.ts';

/** Redis reached through a proxy this file can take down. */
let redis: OutageProxy;
beforeAll(async () => {
  const target = new URL(TEST_REDIS_URL);
  redis = await startOutageProxy({ host: target.hostname, port: Number(target.port || 6379) });
});
afterAll(() => redis.close());
const { env, api } = useTestWorld({ api: true, env: () => ({ REDIS_URL: redis.url(TEST_REDIS_URL) }) });

let nextIp = 1;
/** Each call from its own address, so the rate limit only bites where a test wants it to. */
const post = (body: unknown, ip = `198.51.100.${nextIp++}`) =>
  request(api.app)
    .post('/api/contacts')
    .set('X-Forwarded-For', ip)
    .send(body as object);

const valid = {
  firstName: 'Aroha',
  lastName: 'Smith',
  email: 'aroha@example.nz',
  eventType: 'dance-competition',
  message: 'Can you cover the regional competition in March?',
};

const count = () => env.database.db.$count(contacts);

describe('POST /api/contacts', () => {
  it('saves the enquiry, answers 201 with the record and queues one notification for it', async () => {
    const response = await post(valid).expect(201);
    expect(adminContactSchema.strict().parse(response.body)).toMatchObject(valid);
    expect(response.body).toEqual({
      id: expect.any(Number),
      ...valid,
      createdAt: expect.any(String),
    });
    const job = await api.deps.producer.queue('contact-notification').getJob(`contact-${response.body.id}`);
    expect(job?.data).toEqual({ contactId: response.body.id });
  });

  it('stores a missing or empty event type as null ("Not given"), apart from a chosen "other"', async () => {
    const { eventType: _eventType, ...withoutType } = valid;
    const missing = await post(withoutType).expect(201);
    expect(missing.body.eventType).toBeNull();
    const empty = await post({ ...valid, eventType: '' }).expect(201);
    expect(empty.body.eventType).toBeNull();
    const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, missing.body.id));
    expect(row!.eventType).toBeNull();
    expect(contactEventTypeLabel(row!.eventType)).toBe('Not given');
    const other = await post({ ...valid, eventType: 'other' }).expect(201);
    expect(contactEventTypeLabel(other.body.eventType)).toBe('Other');
  });

  it('takes a message of exactly 5,000 characters', async () => {
    await post({ ...valid, message: 'x'.repeat(5_000) }).expect(201);
  });

  it('refuses missing fields, wrong types and a 10,000-character message with 400 and field messages', async () => {
    const before = await count();
    const cases: Array<[unknown, string]> = [
      [{ ...valid, firstName: undefined }, 'firstName'],
      [{ ...valid, lastName: '' }, 'lastName'],
      [{ ...valid, email: undefined }, 'email'],
      [{ ...valid, email: 'not-an-email' }, 'email'],
      [{ ...valid, message: undefined }, 'message'],
      [{ ...valid, message: '   ' }, 'message'],
      [{ ...valid, message: 'x'.repeat(10_000) }, 'message'],
      [{ ...valid, firstName: 42 }, 'firstName'],
      [{ ...valid, email: ['a@b.nz'] }, 'email'],
      [{ ...valid, message: { text: 'hi' } }, 'message'],
      [{ ...valid, eventType: 'rave' }, 'eventType'],
      [{ ...valid, eventType: 3 }, 'eventType'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body).expect(400);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.body.message, field).toEqual(expect.any(String));
      const issues = response.body.issues as Array<{ path: string; message: string }>;
      expect(
        issues.map((issue) => issue.path),
        JSON.stringify(body).slice(0, 80),
      ).toContain(field);
      expect(issues.every((issue) => issue.message.length > 0)).toBe(true);
    }
    for (const body of [{}, [], 'hello', null]) {
      const response = await request(api.app)
        .post('/api/contacts')
        .set('X-Forwarded-For', `198.51.100.${nextIp++}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toEqual(expect.any(String));
    }
    expect(await count()).toBe(before);
  });

  it('refuses a 2 MB body with 413, saving nothing', async () => {
    const before = await count();
    const response = await post({ ...valid, message: 'x'.repeat(2 * 1024 * 1024) }).expect(413);
    expect(response.body.message).toEqual(expect.any(String));
    expect(await count()).toBe(before);
  });

  it('allows 10 messages per 10 minutes per IP, then answers 429 with when to try again', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++) await post({ ...valid, firstName: `Sender${i}` }, ip).expect(201);
    const before = await count();
    const limited = await post(valid, ip).expect(429);
    expect(limited.body.message).toMatch(/^Too many messages\. Please try again in \d+ minutes?\.$/);
    expect(limited.headers['ratelimit-policy']).toMatch(/q=10; w=600/);
    expect(await count()).toBe(before);
    // Another visitor is not affected.
    await post(valid, '203.0.113.78').expect(201);
  });

  it('still saves the enquiry and answers 201 while Redis is down, leaving it for the sweep', async () => {
    expectErrorLogs(/Redis is reconnecting/);
    // The unlimited pass is told to our log as a warning (the outage it rides through), not to the console.
    const logged = vi.spyOn(api.deps.logger, 'warn');
    redis.down();
    try {
      // Let the client notice the lost connection, as it would in a real outage.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      const response = await post({ ...valid, firstName: 'Offline' }).expect(201);
      expect(Date.now() - started).toBeLessThan(5_000);
      const [row] = await env.database.db.select().from(contacts).where(eq(contacts.id, response.body.id));
      expect(row).toMatchObject({ firstName: 'Offline', notifiedAt: null });
      expect(logged).toHaveBeenCalledWith(
        { err: expect.any(Error) },
        expect.stringContaining('allowing request without rate-limiting'),
      );
    } finally {
      redis.up();
      logged.mockRestore();
    }
    // Nothing was queued: this contact is the sweep's to find.
    await expect
      .poll(async () => {
        try {
          return await api.deps.redis.ping();
        } catch {
          return 'down';
        }
      })
      .toBe('PONG');
    const offline = await env.database.db.select().from(contacts).where(eq(contacts.firstName, 'Offline'));
    const job = await api.deps.producer.queue('contact-notification').getJob(`contact-${offline[0]!.id}`);
    expect(job).toBeUndefined();
  });
});
