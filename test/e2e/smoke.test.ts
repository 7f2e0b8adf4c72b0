import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../support/test-env.ts';
import { startApi, type RunningApi } from '../support/processes.ts';
import { launchBrowser, openPage, type Browser } from '../support/browser.ts';

let env: TestEnv;
let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  env = await createTestEnv();
  [api, browser] = await Promise.all([startApi(env.env), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await env?.cleanup();
});

describe('the built web app served by the api', () => {
  it('renders home without console errors', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(api.url);
    await expect.poll(() => page.locator('h1').first().isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows home for an unknown path', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/no/such/page`);
    await expect.poll(() => page.locator('#home').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
