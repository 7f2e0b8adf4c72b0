import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/src/app.ts';
import { closeDeps, createDeps, type Deps } from '../../api/src/deps.ts';
import { createTestLogger } from './guards.ts';
import { TEST_ADMIN_PASSWORD, type TestEnv } from './test-env.ts';

export interface TestApp {
  app: Express;
  deps: Deps;
  close(): Promise<void>;
}

/** The real api application on the test file's own database and queue prefix. */
export function createTestApp(testEnv: TestEnv): TestApp {
  const deps = createDeps(testEnv.config, createTestLogger('api'));
  return { app: createApp(deps), deps, close: () => closeDeps(deps) };
}

/** A supertest agent holding a logged-in admin session. */
export async function adminAgent(app: Express) {
  const agent = request.agent(app);
  await agent.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(204);
  return agent;
}

/** A webhook delivery posted to the api as Stripe sends it; without `signature`, an unsigned one. */
export function postStripeWebhook(app: Express, event: { body: string; signature?: string }) {
  const call = request(app).post('/api/stripe/webhook').set('Content-Type', 'application/json');
  return (event.signature ? call.set('Stripe-Signature', event.signature) : call).send(event.body);
}

/** supertest's parser for a body kept as bytes whatever its type (a PDF, a clip, an XML listing). */
export function binaryBody(res: request.Response, done: (error: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
