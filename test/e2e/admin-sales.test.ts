import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { purchases, sales } from '@app/shared/db';
import { createRedis, createProducer } from '@app/shared/queue';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { createVideo } from '../support/factories.ts';
import { openPage, type Page } from '../support/browser.ts';
import { useTestWorld } from '../support/world.ts';
import { expectErrorLogs } from '../support/guards.ts';

const { env, api, browser, smtp } = useTestWorld({
  smtp: true,
  processes: { api: true, worker: true },
  browser: true,
  seed: (env) => createVideo(env.database.db, { title: 'Senior Solo Final', priceCents: 1500 }),
});

async function login(page: Page, path: string) {
  await page.goto(`${api.url}${path}`);
  await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
}
const toast = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });

describe('the admin sales and jobs screens', () => {
  it('records an offline payment, e-mails the receipt, and resends it', async () => {
    const { page, context, errors } = await openPage(browser);
    await login(page, '/admin/sales');
    await expect.poll(() => page.getByText('No purchases match.').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Record offline payment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Video').selectOption({ label: 'Senior Solo Final' });
    expect(await dialog.getByLabel('Amount paid (NZ$)').inputValue()).toBe('15.00');
    await dialog.getByLabel('Buyer name').fill('Aroha Smith');
    await dialog.getByLabel('Buyer email').fill('aroha@example.nz');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect.poll(() => toast(page, 'Payment recorded').isVisible()).toBe(true);

    const receipt = await smtp.waitFor((mail) => mail.subject === 'Your video: Senior Solo Final');
    expect(receipt.text).toContain('Kia ora Aroha Smith');
    expect(receipt.text).toMatch(/session_id=offline_/);
    const [purchase] = await env.database.db.select().from(purchases);
    expect(purchase).toMatchObject({ status: 'paid', source: 'offline', amountCents: 1500 });
    expect(await env.database.db.$count(sales, eq(sales.purchaseId, purchase!.id))).toBe(1);

    // The list shows the paid purchase (it refreshes shortly after recording) and the period totals.
    await page.reload();
    await expect.poll(() => page.getByRole('cell', { name: /Aroha Smith/ }).isVisible()).toBe(true);
    expect(await page.getByRole('table').getByText('paid', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('NZ$15.00').count()).toBeGreaterThanOrEqual(3);

    await page.getByRole('combobox', { name: 'Status' }).selectOption('refunded');
    await expect.poll(() => page.getByText('No purchases match.').isVisible()).toBe(true);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('paid');
    await page.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => toast(page, 'Receipt queued').isVisible()).toBe(true);
    await expect
      .poll(() => smtp.messages.filter((mail) => mail.subject === 'Your video: Senior Solo Final').length)
      .toBe(2);

    const csv = await page.request.get(`${api.url}/api/admin/purchases.csv`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(await csv.text()).toContain('"Aroha Smith"');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a failed job with its reason and retries it', async () => {
    // A job whose payload the worker refuses fails at once, without retries.
    const connection = createRedis(env.config.REDIS_URL, 'client');
    expectErrorLogs(/"jobId":"broken-receipt"/); // its payload is wrong on purpose
    const producer = createProducer(connection, env.config.QUEUE_PREFIX);
    const queued = await producer
      .queue('purchase-receipt')
      .add('purchase-receipt', { bogus: true }, { attempts: 1, jobId: 'broken-receipt' });
    await expect.poll(async () => queued.getState(), { timeout: 10_000 }).toBe('failed');

    const { page, context } = await openPage(browser);
    await login(page, '/admin/jobs');
    const row = page.getByRole('row').filter({ hasText: 'broken-receipt' });
    await expect.poll(() => row.getByText('failed', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText(/Invalid payload/).isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => toast(page, 'Job queued to run again').isVisible()).toBe(true);
    // It ran again (and, its payload still being wrong, failed again).
    await expect
      .poll(async () => (await producer.queue('purchase-receipt').getJob(queued.id!))?.attemptsMade, {
        timeout: 10_000,
      })
      .toBe(2);
    expect(await page.getByRole('link', { name: /Queue dashboard/ }).getAttribute('href')).toBe(
      '/admin/queues',
    );
    await producer.close();
    connection.disconnect();
    await context.close();
  });

  it('shows the login instead of every admin screen when logged out', async () => {
    const { page, context } = await openPage(browser);
    for (const path of [
      '/admin',
      '/admin/contacts',
      '/admin/events',
      '/admin/videos',
      '/admin/sync',
      '/admin/sales',
      '/admin/jobs',
    ]) {
      await page.goto(`${api.url}${path}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Admin Login' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
    }
    await context.close();
  });
});
