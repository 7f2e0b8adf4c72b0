import type { Express } from 'express';
import request from 'supertest';
import { createLogger } from '@app/shared/logger';
import { createApp } from '../../api/src/app.ts';
import { closeDeps, createDeps, type Deps } from '../../api/src/deps.ts';
import { TEST_ADMIN_PASSWORD, type TestEnv } from './test-env.ts';

export interface TestApp {
  app: Express;
  deps: Deps;
  close(): Promise<void>;
}

/** The real api application on the test file's own database and queue prefix. */
export function createTestApp(testEnv: TestEnv): TestApp {
  const deps = createDeps(
    testEnv.config,
    createLogger({ name: 'api-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  );
  return { app: createApp(deps), deps, close: () => closeDeps(deps) };
}

/** A supertest agent holding a logged-in admin session. */
export async function adminAgent(app: Express) {
  const agent = request.agent(app);
  await agent.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(204);
  return agent;
}
