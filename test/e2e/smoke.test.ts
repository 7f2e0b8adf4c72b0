import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../support/test-env.ts';
import { startApi, type RunningApi } from '../support/processes.ts';
import { launchBrowser, openPage, type Browser } from '../support/browser.ts';
import { FIRST_LOAD_BUDGET_KB, firstLoadJavaScriptKb } from '../support/first-load.ts';

let env: TestEnv;
let api: RunningApi;
let browser: Browser;
let imagesDir: string;

beforeAll(async () => {
  // The hero picture the seed draws on a real install.
  imagesDir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-smoke-'));
  await mkdir(path.join(imagesDir, 'hero'));
  await sharp({ create: { width: 640, height: 360, channels: 3, background: '#222244' } })
    .jpeg()
    .toFile(path.join(imagesDir, 'hero/stage-hero.jpg'));
  env = await createTestEnv({ IMAGES_DIR: imagesDir, IMAGE_CACHE_DIR: path.join(imagesDir, 'cache') });
  [api, browser] = await Promise.all([startApi(env.env), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await env?.cleanup();
  await rm(imagesDir, { recursive: true, force: true });
});

describe('the built web app served by the api', () => {
  it('keeps the first-load JavaScript of home within its budget', () => {
    // The same figure bench/lighthouse.ts reports, from the build the api serves (npm run build).
    const kb = firstLoadJavaScriptKb(path.join(import.meta.dirname, '../../web/dist'));
    expect(kb).toBeGreaterThan(0);
    expect(kb).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
  });

  it('renders home without console errors', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(api.url);
    await expect.poll(() => page.locator('h1').first().isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows home for an unknown path', async () => {
    const { page, context, errors } = await openPage(browser);
    const response = await page.goto(`${api.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.locator('#home').count()).toBe(1);
    // The document's own 404 is the point (noindex); nothing else may fail.
    expect(errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
    expect(errors).toHaveLength(1);
    await context.close();
  });
});
