import express from 'express';
import request from 'supertest';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { limits, rateLimiter } from './rate-limit.ts';

const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
const prefix = `rl-test-${randomUUID()}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('the limiters', () => {
  it('start and count without warnings from express-rate-limit, our keys included', async () => {
    const logged: unknown[] = [];
    const logger = {
      error: (entry: unknown) => logged.push(entry),
      warn: (entry: unknown) => logged.push(entry),
    };
    const deps = { redis, logger, config: { QUEUE_PREFIX: prefix } } as unknown as Deps;
    const app = express().use(express.json());
    for (const [name, rule] of Object.entries(limits)) {
      app.post(`/${name}/:id`, rateLimiter(deps, rule), (_req, res) => {
        res.json({ ok: true });
      });
    }
    for (const name of Object.keys(limits)) {
      await request(app).post(`/${name}/not-a-video`).send({ password: 'guess' }).expect(200);
    }
    // The library checks each limiter's options on its first request and logs what it dislikes.
    expect(logged).toEqual([]);
  });
});
