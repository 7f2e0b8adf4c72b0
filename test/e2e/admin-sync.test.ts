import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { openPage } from '../support/browser.ts';
import { createEvent } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

const { api, browser } = useTestWorld({
  processes: { api: true, worker: true },
  browser: true,
  env: async ({ dir }) => {
    const csv = path.join(dir, 'links.csv');
    await writeFile(
      csv,
      'Competition,Date,Order link\nCanterbury Dance Festival,x,https://form.example/canterbury\nNelson Champs,x,https://form.example/nelson\n',
    );
    return { ORDER_LINKS_CSV: csv };
  },
  seed: (env) => createEvent(env.database.db, { title: 'Canterbury Dance Festival', date: '2027-03-01' }),
});

describe('the order links sync screen', () => {
  it('runs a sync, follows the job, and shows the new link and the unmatched row', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/admin/sync`);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => page.getByText('No order link').isVisible()).toBe(true);

    // The sync may finish within a few milliseconds, so record the button's label as it changes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenLabels: string[] }).seenLabels = seen;
      new MutationObserver(() => {
        for (const button of document.querySelectorAll('button')) seen.push(button.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Sync Order Links Now' }).click();
    const toast = page.getByTestId('toast');
    await expect.poll(() => toast.getByText('Order links synced successfully!').isVisible()).toBe(true);
    expect(await toast.getByText('Updated 1 events with new order links.').isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('link', { name: 'Order Link' }).getAttribute('href'))
      .toBe('https://form.example/canterbury');
    await expect.poll(() => page.getByText('“Nelson Champs” matches no event').isVisible()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { seenLabels: string[] }).seenLabels)).toContain(
      'Syncing...',
    );
    await expect
      .poll(() => page.getByRole('button', { name: 'Sync Order Links Now' }).isEnabled())
      .toBe(true);
    const run = page.getByRole('table').getByRole('row').nth(1);
    await expect
      .poll(async () => (await run.getByRole('cell').allInnerTexts()).slice(1, 8))
      .toEqual(['admin', 'succeeded', '1', '0', '1', '0', '0']);
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
    await context.close();
  });

  it('says why a sync could not start', async () => {
    const { page, context } = await openPage(browser);
    await page.route('**/api/sync-order-links', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Order-link sync is not set up' }),
      }),
    );
    await page.goto(`${api.url}/admin/sync`);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Sync Order Links Now' }).click();
    const toast = page.getByTestId('toast');
    await expect.poll(() => toast.getByText('Sync failed', { exact: true }).isVisible()).toBe(true);
    expect(await toast.getByText('Order-link sync is not set up').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sync Order Links Now' }).isEnabled()).toBe(true);
    await context.close();
  });
});
