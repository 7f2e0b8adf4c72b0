import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testimonials, videos } from '@app/shared/db';
import { createStorage } from '@app/shared/storage';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { openPage, type Page } from '../support/browser.ts';
import { createPurchase, createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

// What the owner meets after launch: the quotes on the home page are hers to manage, and a video
// someone has bought is hidden rather than deleted.

const { env, api, browser } = useTestWorld({ processes: { api: true }, browser: true });

async function login(page: Page) {
  await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
}
const toast = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });

/** The quotes the home page shows, in order; [] when the section is absent. */
async function homeQuotes(page: Page): Promise<string[]> {
  await page.goto(api.url);
  await page.getByRole('heading', { name: 'Behind the Lens' }).waitFor();
  return page.getByRole('region', { name: 'Testimonials' }).locator('blockquote').allTextContents();
}

describe('the owner after launch', () => {
  it('adds, reorders and hides testimonials, and the home page follows', async () => {
    const { page: home, context: visitor } = await openPage(browser);
    expect(await homeQuotes(home)).toEqual([]);
    expect(await home.getByText('What Families and Studios Say').count()).toBe(0);

    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/admin/testimonials`);
    await login(page);
    await page.getByText('No testimonials yet').waitFor();
    for (const [name, quote, event] of [
      ['Aroha T., studio director', 'Every dancer, every section, beautifully shot.', ''],
      ['Sam P., dance parent', 'Photos before she was out of costume.', 'Nelson Festival 2026'],
    ]) {
      await page
        .getByRole('button', { name: /Add( First)? Testimonial/ })
        .first()
        .click();
      await page.getByLabel('Name').fill(name!);
      await page.getByLabel('Quote').fill(quote!);
      await page.getByLabel('Event (optional)').fill(event!);
      await page.getByRole('button', { name: 'Save Testimonial' }).click();
      // The list's quote, not the form's own text (a textarea's text follows what was typed).
      await expect.poll(() => page.locator('blockquote').filter({ hasText: quote! }).isVisible()).toBe(true);
    }
    expect(await homeQuotes(home)).toEqual([
      '“Every dancer, every section, beautifully shot.”',
      '“Photos before she was out of costume.”',
    ]);
    expect(await home.getByText('Nelson Festival 2026').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Move Sam P., dance parent up' }).click();
    await expect
      .poll(async () => (await page.getByRole('listitem').locator('blockquote').allTextContents())[0])
      .toBe('“Photos before she was out of costume.”');
    expect(await homeQuotes(home)).toEqual([
      '“Photos before she was out of costume.”',
      '“Every dancer, every section, beautifully shot.”',
    ]);

    await page.getByRole('button', { name: 'Hide Sam P., dance parent' }).click();
    await expect.poll(() => toast(page, 'Hidden from the home page').isVisible()).toBe(true);
    expect(await homeQuotes(home)).toEqual(['“Every dancer, every section, beautifully shot.”']);
    expect(await env.database.db.$count(testimonials)).toBe(2);
    await visitor.close();
    await context.close();
  });

  it('is told why a sold video cannot be deleted, hides it instead, and sees a missing file flagged', async () => {
    const awsKey = 'videos/sold-final.mp4';
    await createStorage(env.config).put(awsKey, Buffer.from('a video'), 'video/mp4');
    const sold = await createVideo(env.database.db, { title: 'Sold Final', priceCents: 1500, awsKey });
    await createPurchase(env.database.db, { videoId: sold.id, status: 'paid', paidAt: new Date() });
    await createVideo(env.database.db, { title: 'Typo Key', awsKey: 'videos/not-there.mp4' });

    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/videos`);
    await expect.poll(() => page.getByText('Sold Final').count()).toBeGreaterThan(0);

    await page.goto(`${api.url}/admin/videos`);
    await login(page);
    const card = page.getByRole('listitem').filter({ hasText: 'Sold Final' });
    await card.getByRole('button', { name: 'Delete Sold Final' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByText('This video cannot be deleted').isVisible()).toBe(true);
    expect(await page.getByText(/has been sold, so it cannot be deleted/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Hide instead' }).click();
    await expect.poll(() => toast(page, 'Hidden from the site').isVisible()).toBe(true);
    await expect.poll(() => card.getByText('Hidden', { exact: true }).isVisible()).toBe(true);
    const [row] = await env.database.db.select().from(videos).where(eq(videos.id, sold.id));
    expect(row?.published).toBe(false);

    const typo = page.getByRole('listitem').filter({ hasText: 'Typo Key' });
    expect(await typo.getByText('File missing').isVisible()).toBe(true);
    expect(await card.getByText('File missing').count()).toBe(0);

    await page.goto(`${api.url}/videos`);
    await page.getByText('Typo Key').first().waitFor();
    expect(await page.getByText('Sold Final').count()).toBe(0);
    await context.close();
  });

  describe('keyboard users', () => {
    it('reach the notifications region with F8 before any notification has appeared', async () => {
      const { page, context } = await openPage(browser);
      await page.goto(api.url);
      await page.getByRole('heading', { name: 'Behind the Lens' }).waitFor();
      await page.locator('html[data-app="ready"]').waitFor();
      await page.keyboard.press('F8');
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.closest('[role="region"]')?.getAttribute('aria-label')),
        )
        .toMatch(/^Notifications/);
      await context.close();
    });
  });
});
