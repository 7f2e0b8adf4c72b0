import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../test/support/test-env.ts';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';

let env: TestEnv;
let api: TestApp;

beforeAll(async () => {
  env = await createTestEnv({
    ANALYTICS_DOMAIN: 'stagelight.example',
    ANALYTICS_SCRIPT_URL: 'https://stats.example.org/js/script.js',
    APP_URL: 'https://app.example.com',
  });
  api = createTestApp(env);
});
afterAll(async () => {
  await api.close();
  await env.cleanup();
});

describe('analytics, when configured', () => {
  it('loads the cookie-free script and lets only its host through the CSP', async () => {
    const response = await request(api.app).get('/').expect(200);
    expect(response.text).toContain(
      '<script defer data-domain="stagelight.example" src="https://stats.example.org/js/script.js"></script>',
    );
    const csp = response.headers['content-security-policy']!;
    expect(csp).toMatch(/script-src 'self' https:\/\/stats\.example\.org;/);
    expect(csp).toMatch(/connect-src 'self' https:\/\/stats\.example\.org/);
    const config = JSON.parse(
      /<script id="public-config" type="application\/json">(.*?)<\/script>/.exec(response.text)![1]!,
    );
    expect(config).toMatchObject({
      appUrl: 'https://app.example.com',
      analyticsDomain: 'stagelight.example',
    });
  });

  it("is left out of a page whose address holds a buyer's session id, so the page view cannot carry it", async () => {
    for (const path of [
      '/video-purchase-success?session_id=cs_test_1&video_id=v1',
      '/video/v1/download?session_id=cs_test_1',
      // The library's sign-in link holds its token in the fragment, which only the page's scripts see.
      '/my-videos/sign-in',
    ]) {
      const response = await request(api.app).get(path);
      expect(response.text, path).toContain('<title>');
      expect(response.text, path).not.toContain('<script defer data-domain=');
    }
    expect((await request(api.app).get('/videos?tag=ballet')).text).toContain('<script defer data-domain=');
  });
});
