import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { showcases, videos } from '@app/shared/db';
import { seedCatalogue } from '../../scripts/seed/catalogue.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { appReady, openPage, type Page } from '../support/browser.ts';
import { createShowcase, createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

// The library at a season's scale in the browser (issue 15): 5,000 routines in a few showcases.

let target: Awaited<ReturnType<typeof createShowcase>>;
const { env, api, browser } = useTestWorld({
  processes: { api: true },
  browser: true,
  timeout: 120_000,
  seed: async ({ database: { db } }) => {
    await seedCatalogue(db, { videos: 5_000, showcases: 6 });
    target = await createShowcase(db, {
      name: 'Regional Finals Move Target',
      slug: 'regional-finals',
      orderPriority: 99,
    });
    await createVideo(db, {
      title: 'Aroha Whānau Duet',
      description: 'A duet from the spring showcase',
      tags: ['Kahikatea Kids'],
      priceCents: 1800,
    });
  },
});

/** Console errors apart from the seeded previews, whose files this world's storage does not hold. */
const unexpected = (errors: string[]) => errors.filter((error) => !/status of 404/.test(error));
const resultTitles = (page: Page) => page.locator('main li h3').allTextContents();

describe('the video library at scale', () => {
  it('searches from the box on a phone: a misspelt style, a tag, the query in the address, Back restores', async () => {
    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(`${api.url}/videos`);
    await appReady(page);
    const search = page.getByLabel('Search videos');

    await search.fill('balet');
    await page.waitForURL(/\/videos\?q=balet$/);
    await expect.poll(() => page.getByText(/^\d+ videos found for “balet”$/).isVisible()).toBe(true);
    const ballet = await resultTitles(page);
    expect(ballet.length).toBeGreaterThan(0);
    for (const title of ballet) expect(title).toMatch(/Ballet/);

    await search.fill('kahikatea kids');
    await page.waitForURL(/\/videos\?q=kahikatea\+kids$/);
    await expect.poll(() => resultTitles(page)).toEqual(['Aroha Whānau Duet']);
    expect(await page.getByText('1 video found for “kahikatea kids”').isVisible()).toBe(true);

    await page.goBack();
    await page.waitForURL(/\/videos\?q=balet$/);
    await expect.poll(() => search.inputValue()).toBe('balet');
    await expect.poll(() => resultTitles(page)).toEqual(ballet);

    // A shared address opens the same results, rendered by the server.
    const shared = await browser.newContext({ javaScriptEnabled: false });
    const still = await shared.newPage();
    await still.goto(`${api.url}/videos?q=kahikatea%20kids`);
    expect(await still.locator('main li h3').allTextContents()).toEqual(['Aroha Whānau Duet']);
    await shared.close();

    await search.fill('zzqxv');
    await expect.poll(() => page.getByText('No videos match “zzqxv”.').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Clear the search and see all videos' }).click();
    await page.waitForURL(/\/videos$/);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('pages through a showcase without JavaScript', async () => {
    const [showcase] = await env.database.db
      .select()
      .from(showcases)
      .where(like(showcases.name, '%2026'))
      .limit(1);
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${api.url}/videos`);
    await page.getByRole('link', { name: new RegExp(`^See all \\d+ videos in ${showcase!.name}$`) }).click();
    await page.waitForURL(`${api.url}/videos/${showcase!.slug}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(showcase!.name);
    const first = await page.locator('main li h3').allTextContents();
    expect(first).toHaveLength(24);

    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(`${api.url}/videos/${showcase!.slug}?page=2`);
    expect(await page.getByText(/· page 2 of \d+/).isVisible()).toBe(true);
    const second = await page.locator('main li h3').allTextContents();
    expect(second).toHaveLength(24);
    expect(second.some((title) => first.includes(title))).toBe(false);
    expect(await page.locator('link[rel="prev"]').getAttribute('href')).toMatch(
      new RegExp(`/videos/${showcase!.slug}$`),
    );
    await page.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL(`${api.url}/videos/${showcase!.slug}`);
    await context.close();
  });

  it('lets the owner find a video among 5,000 and move 20 to another showcase at once', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/admin/videos`);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Videos/ }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: /^Videos/ }).textContent()).toMatch(/\(5001\)/);

    await page.getByLabel('Search videos').fill('aroha duet');
    await expect.poll(() => page.locator('main li h3').allTextContents()).toEqual(['Aroha Whānau Duet']);
    await page.getByLabel('Search videos').fill('');

    const [source] = await env.database.db
      .select()
      .from(showcases)
      .where(like(showcases.name, '%2026'))
      .limit(1);
    await page.getByLabel('Filter by showcase').selectOption({ label: source!.name });
    await expect.poll(() => page.locator('main li h3').count()).toBe(50);
    const boxes = page.getByRole('checkbox', { name: /^Select Routine/ });
    const moving: string[] = [];
    for (let index = 0; index < 20; index++) {
      const box = boxes.nth(index);
      moving.push((await box.getAttribute('aria-label'))!.replace(/^Select /, ''));
      await box.check();
    }
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    expect(await bar.getByText('20 videos selected').isVisible()).toBe(true);
    await bar.getByLabel('Move to').selectOption({ label: target.name });
    await bar.getByRole('button', { name: 'Apply to 20 videos' }).click();
    await expect.poll(() => page.getByTestId('toast').getByText('20 videos moved').isVisible()).toBe(true);

    const moved = await env.database.db
      .select({ title: videos.title })
      .from(videos)
      .where(and(eq(videos.showcaseId, target.id)));
    expect(moved.map((row) => row.title).sort()).toEqual([...moving].sort());
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
