import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/services.ts';

// Production must not start half-configured (shared/src/server/config.ts): Stripe's return links and receipts
// would point at localhost, mail would only be logged, and visitors would see a placeholder address.

const root = fileURLToPath(new URL('../..', import.meta.url));

const complete: Record<string, string> = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'production-start-test-secret-0123456789',
  ADMIN_PASSWORD_HASH: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
  PUBLIC_URL: 'https://stagelight.example.nz',
  OWNER_EMAIL: 'owner@stagelight.example.nz',
  PUBLIC_CONTACT_EMAIL: 'hello@stagelight.example.nz',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  // Nothing else may be reached: a process that got past its configuration fails here instead.
  DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  REDIS_URL: 'redis://127.0.0.1:1',
  PORT: '0',
  LOG_LEVEL: 'info',
};

const children = new Map<number, ChildProcess>();
const stop = async (port: number) => children.get(port)?.kill('SIGKILL');

/** Runs a bundle until it exits (or 60 s pass) and returns its exit code and output. */
function run(entry: string, env: Record<string, string | undefined>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(name in complete) && name !== 'MAIL_DISABLED'),
  );
  const child = spawn(process.execPath, [entry], { cwd: root, env: { ...clean, ...env }, stdio: 'pipe' });
  let output = '';
  children.set(Number(env.PORT), child);
  const read = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe('production start-up', () => {
  for (const entry of ['api/dist/index.mjs', 'worker/dist/index.mjs']) {
    it(`${entry} stops naming each missing variable`, { timeout: 300_000 }, async () => {
      const missing = ['PUBLIC_URL', 'OWNER_EMAIL', 'PUBLIC_CONTACT_EMAIL', 'SMTP_URL'] as const;
      for (const name of missing) {
        const result = await run(entry, { ...complete, [name]: undefined });
        expect(result.code, name).toBe(1);
        expect(result.output).toContain(`${name} is required in production`);
      }
      const http = await run(entry, { ...complete, PUBLIC_URL: 'http://stagelight.example.nz' });
      expect(http.output).toContain('PUBLIC_URL must start with https://');
    });
  }

  it('accepts MAIL_DISABLED=true instead of SMTP_URL', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const started = run('api/dist/index.mjs', {
      ...complete,
      SMTP_URL: undefined,
      MAIL_DISABLED: 'true',
      PORT: String(port),
    });
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (response) => response.status,
            () => 0,
          ),
        {
          timeout: 60_000,
        },
      )
      .toBe(200);
    await stop(port);
    expect((await started).output).not.toContain('required in production');
  });
});
