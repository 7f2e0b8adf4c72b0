// Issue 14's spoofed-address drill and issue 21's log checks, on the real api and worker processes:
// visitors are distinct loopback addresses (127.0.0.x), so nothing here relies on X-Forwarded-For
// unless a proxy this test runs sets it.
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestEnv, TEST_ADMIN_PASSWORD, type TestEnv } from '../support/test-env.ts';
import { startApi, startWorker, type RunningApi, type RunningProcess } from '../support/processes.ts';
import { requestFrom, startForwardingProxy } from '../support/http-from.ts';
import { startSmtpCapture, type CapturedMail } from '../support/smtp.ts';

const started: RunningProcess[] = [];
const envs: TestEnv[] = [];
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  await Promise.all(started.map((process) => process.stop('SIGKILL')));
  for (const close of closers) await close();
  for (const env of envs) await env.cleanup();
});

async function api(overrides: Record<string, string> = {}): Promise<RunningApi> {
  const env = await createTestEnv(overrides);
  envs.push(env);
  const running = await startApi({ ...env.env, LOG_LEVEL: 'info' });
  started.push(running);
  return running;
}

const login = (url: string, from: string, password = 'wrong', headers: Record<string, string> = {}) =>
  requestFrom(from, `${url}/api/admin/login`, { json: { password }, headers });

describe('TRUST_PROXY unset (the default)', () => {
  it('limits by the socket address whatever X-Forwarded-For says', { timeout: 60_000 }, async () => {
    const { url } = await api({ TRUST_PROXY: '' });
    for (let attempt = 1; attempt <= 10; attempt++) {
      const reply = await login(url, '127.0.0.2', 'wrong', { 'X-Forwarded-For': `198.51.100.${attempt}` });
      expect(reply.status).toBe(401);
    }
    const eleventh = await login(url, '127.0.0.2', 'wrong', { 'X-Forwarded-For': '198.51.100.99' });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers['retry-after']).toMatch(/^\d+$/);
    // Another address is another visitor.
    expect((await login(url, '127.0.0.3')).status).toBe(401);
  });
});

describe('TRUST_PROXY=1 behind a proxy that sets X-Forwarded-For', () => {
  it(
    'tells visitors apart by the address the proxy saw, not by what they claim',
    { timeout: 60_000 },
    async () => {
      const backend = await api({ TRUST_PROXY: '1' });
      const proxy = await startForwardingProxy(backend.url);
      closers.push(proxy.close);
      for (let attempt = 1; attempt <= 10; attempt++) {
        // A spoofed first hop: the proxy appends the real address after it, and only that one counts.
        const reply = await login(proxy.url, '127.0.0.4', 'wrong', {
          'X-Forwarded-For': `203.0.113.${attempt}`,
        });
        expect(reply.status).toBe(401);
      }
      expect((await login(proxy.url, '127.0.0.4')).status).toBe(429);
      expect((await login(proxy.url, '127.0.0.5')).status).toBe(401);
      expect((await login(proxy.url, '127.0.0.5', TEST_ADMIN_PASSWORD)).status).toBe(204);
    },
  );
});

describe('wrong admin passwords from many addresses', () => {
  let smtp: CapturedMail;

  it(
    'start a global slowdown past 50, e-mail the owner once, and still let the owner in',
    { timeout: 120_000 },
    async () => {
      smtp = await startSmtpCapture();
      closers.push(() => smtp.close());
      const site = await api({ TRUST_PROXY: '', SMTP_URL: smtp.url });
      const env = envs.at(-1)!;
      started.push(await startWorker(env.env));

      for (let visitor = 1; visitor <= 60; visitor++) {
        expect((await login(site.url, `127.0.1.${visitor}`)).status).toBe(401);
      }
      // Addresses that guessed wrong now wait, with the time to wait.
      const slowed = await login(site.url, '127.0.1.1', TEST_ADMIN_PASSWORD);
      expect(slowed.status).toBe(429);
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(slowed.body).message).toMatch(/Too many wrong passwords/);
      // The owner, at an address that has not failed, gets in.
      const owner = await login(site.url, '127.0.2.1', TEST_ADMIN_PASSWORD);
      expect(owner.status).toBe(204);
      expect(owner.headers['set-cookie']?.[0]).toMatch(/^sid=/);

      const alert = await smtp.waitFor((mail) => /wrong passwords/i.test(mail.subject ?? ''), 30_000);
      expect(alert.subject).toBe('Many wrong passwords for the admin login');
      expect(alert.text).toMatch(/51 wrong passwords for the admin login arrived within 60 minutes/);
      // More wrong guesses in the same hour send nothing more.
      for (let visitor = 61; visitor <= 65; visitor++) await login(site.url, `127.0.1.${visitor}`);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(smtp.messages.filter((mail) => /wrong passwords/i.test(mail.subject ?? ''))).toHaveLength(1);

      // The logs of all this hold no session cookie, no bearer value of a URL, and not the words of a
      // search beside the address that made it (often a child's name).
      const sid = owner.headers['set-cookie']![0]!.split(';')[0]!.slice('sid='.length);
      await requestFrom('127.0.2.1', `${site.url}/api/purchases/cs_test_secretsession?wait=0`);
      await requestFrom('127.0.2.1', `${site.url}/api/files/videos%2Fa.mp4?exp=1&sig=secretsignature`);
      await requestFrom('127.0.2.1', `${site.url}/video/v1/download?session_id=cs_test_secretpage`);
      await requestFrom('127.0.2.1', `${site.url}/api/programme/search?q=Secretname%20Ngata`);
      await requestFrom('127.0.2.1', `${site.url}/videos?price=paid&q=secretname+ngata`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const logs = site.output();
      expect(logs).toContain('"url":"/api/admin/login"');
      // A response is logged by its status, not its headers (the login's carry the session cookie).
      expect(logs).toContain('"res":{"statusCode":204}');
      expect(logs).not.toContain('content-security-policy');
      expect(logs).toContain('/api/purchases/[redacted]');
      expect(logs).not.toContain(decodeURIComponent(sid));
      expect(logs).not.toContain(sid);
      expect(logs).not.toMatch(/sid=/);
      expect(logs).toContain('/api/programme/search?q=[redacted]');
      for (const secret of ['cs_test_secretsession', 'secretsignature', 'cs_test_secretpage', 'ecretname'])
        expect(logs).not.toContain(secret);
    },
  );
});

describe('load shedding', () => {
  it(
    'answers a flood from one address with 429 and Retry-After, and serves another address',
    { timeout: 60_000 },
    async () => {
      const { url } = await api({ TRUST_PROXY: '', METRICS_TOKEN: 'client-addresses-drill' });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 20, localAddress: '127.0.0.6' });
      const statuses = await Promise.all(
        Array.from(
          { length: 400 },
          () =>
            new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
              http
                .get(`${url}/api/purchases/cs_unknown`, { agent }, (response) => {
                  response.resume();
                  response.on('end', () =>
                    resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'] }),
                  );
                })
                .on('error', reject);
            }),
        ),
      );
      agent.destroy();
      const refused = statuses.filter((reply) => reply.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(100);
      expect(refused.every((reply) => Number(reply.retryAfter) > 0)).toBe(true);
      expect(statuses.filter((reply) => reply.status !== 429).every((reply) => reply.status === 404)).toBe(
        true,
      );
      expect((await requestFrom('127.0.0.7', `${url}/api/purchases/cs_unknown`)).status).toBe(404);
      const metrics = await requestFrom('127.0.0.7', `${url}/metrics`, {
        headers: { Authorization: 'Bearer client-addresses-drill' },
      });
      // Past 120 the route's own limit answers too; past 300 the requests never reach Express.
      expect(Number(/^http_requests_shed (\d+)$/m.exec(metrics.body)?.[1])).toBeGreaterThan(0);
    },
  );
});
