import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser.ts';
import { useTestWorld } from '../support/world.ts';
import { FIRST_LOAD_BUDGET_KB, firstLoadJavaScriptKb } from '../support/first-load.ts';

const { api, browser } = useTestWorld({
  processes: { api: true },
  browser: true,
  env: async ({ dir }) => {
    // The hero picture the seed draws on a real install.
    await mkdir(path.join(dir, 'hero'));
    await sharp({ create: { width: 640, height: 360, channels: 3, background: '#222244' } })
      .jpeg()
      .toFile(path.join(dir, 'hero/stage-hero.jpg'));
    return { IMAGES_DIR: dir, IMAGE_CACHE_DIR: path.join(dir, 'cache') };
  },
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
