import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purchases, sales, purchaseItems } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { createStorage } from '@app/shared/storage';
import { downloadedFile, openPage, playerLoaded, toastText } from '../support/browser.ts';
import { createShowcase, createVideo, SAMPLE_VIDEO_PATH } from '../support/factories.ts';
import { expectErrorLogs } from '../support/guards.ts';
import { shopInBrowser, useTestWorld } from '../support/world.ts';
import { routeCheckoutPages } from '../support/fake-stripe.ts';

// The whole purchase in Chromium, against the fake Stripe: the payment page the fake's session URL
// names (https://checkout.stripe.test/pay/{id}) is served by the browser context's router, and its
// Pay button marks the session paid and returns to the success URL, as Stripe Checkout does.
// No webhook is delivered: the success page's polling is what gets the sale recorded.

const { env, api, browser, stripe, smtp } = useTestWorld(shopInBrowser);
const sample = await readFile(SAMPLE_VIDEO_PATH);

describe('buying a video by card', () => {
  it('walks library → search → password → buy → payment page → success → download of the stored bytes', async () => {
    const awsKey = `videos/${randomUUID()}.mp4`;
    await createStorage(env.config).put(awsKey, sample, 'video/mp4');
    const showcase = await createShowcase(env.database.db, { name: 'Marlborough Stage Showcase' });
    const video = await createVideo(env.database.db, {
      title: 'Junior Ballet Recital',
      description: 'The complete junior ballet recital.',
      tags: ['ballet', 'recital'],
      showcaseId: showcase.id,
      priceCents: 1500,
      awsKey,
      passwordProtected: true,
      passwordHash: await hashPassword('recital2026'),
    });
    await createVideo(env.database.db, { title: 'Hip Hop Crew', tags: ['street'], priceCents: 900 });

    const { page, context, errors } = await openPage(browser);
    await routeCheckoutPages(context, stripe);
    await page.clock.install();
    await page.goto(`${api.url}/videos`);
    await page.getByLabel('Search videos').fill('RECITAL');
    await expect.poll(() => page.getByText('Hip Hop Crew').count()).toBe(0);
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Junior Ballet Recital' })
      .getByRole('link', { name: 'Buy Now' })
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/${video.id}/purchase`);

    await page.getByLabel('Video password').fill('recital2026');
    await page.getByRole('button', { name: 'Verify Password' }).click();
    await expect.poll(() => toastText(page, 'Access Granted').isVisible()).toBe(true);
    await page.getByLabel('Name').fill('Aroha Smith');
    await page.getByLabel('Email').fill('aroha@example.nz');
    const [payment] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Buy Now NZ$15.00' }).click(),
    ]);

    // The new tab reaches the payment page; this tab says where to pay and does not fall back.
    await expect.poll(() => payment.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    await expect.poll(() => payment.locator('#amount').textContent()).toBe('15.00 NZD');
    await expect.poll(() => page.getByText('Complete your payment in the new tab').isVisible()).toBe(true);
    // Past the 3-second fallback, on the page's own clock (installed before it loaded).
    await page.clock.fastForward(3_500);
    expect(new URL(page.url()).pathname).toBe(`/video/${video.id}/purchase`);
    const [created] = stripe.created;
    expect(created).toMatchObject({
      mode: 'payment',
      customer_email: 'aroha@example.nz',
      'line_items[0][price_data][currency]': 'nzd',
      'line_items[0][price_data][unit_amount]': '1500',
      'metadata[videoId]': video.id,
    });

    await payment.locator('#pay').click();
    await expect.poll(() => new URL(payment.url()).pathname).toBe('/video-purchase-success');
    const sessionId = new URL(payment.url()).searchParams.get('session_id')!;
    expect(sessionId).toMatch(/^cs_test_/);
    const link = payment.getByRole('link', { name: 'Watch & Download' });
    await expect.poll(() => link.isVisible(), { timeout: 20_000 }).toBe(true);
    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: 'paid', buyerEmail: 'aroha@example.nz' });
    expect(await env.database.db.$count(purchaseItems, eq(purchaseItems.purchaseId, purchase!.id))).toBe(1);
    expect(await env.database.db.$count(sales, eq(sales.purchaseId, purchase!.id))).toBe(1);

    // The payment tab was opened from the purchase page, so it carries this visit's password token.
    await link.click();
    await expect.poll(() => new URL(payment.url()).pathname).toBe(`/video/${video.id}/download`);
    await expect.poll(() => playerLoaded(payment)).toBe(true);
    const [download] = await Promise.all([
      payment.waitForEvent('download'),
      payment.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect((await readFile(await downloadedFile(download))).equals(sample)).toBe(true);
    expect(download.suggestedFilename()).toBe('Junior-Ballet-Recital.mp4');

    // The receipt links back to the same download page.
    const receipt = await smtp.waitFor(
      (mail) => mail.to !== undefined && JSON.stringify(mail.to).includes('aroha@example.nz'),
    );
    expect(receipt.text ?? receipt.html).toContain(`/video/${video.id}/download?session_id=${sessionId}`);
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
    await context.close();
  });

  it('pays in the same tab when no new tab opens (a popup blocker), and comes back to the success page', async () => {
    const video = await createVideo(env.database.db, { title: 'Senior Contemporary', priceCents: 2500 });
    const { page, context } = await openPage(browser);
    await routeCheckoutPages(context, stripe);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    // A popup blocker: window.open gives nothing back.
    await page.evaluate(() => {
      window.open = () => null;
    });
    await page.getByLabel('Name').fill('Aroha Smith');
    await page.getByLabel('Email').fill('aroha@example.nz');
    await page.getByRole('button', { name: /Buy Now/ }).click();
    await expect.poll(() => page.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    await page.locator('#pay').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/video-purchase-success');
    await expect
      .poll(() => page.getByRole('link', { name: 'Watch & Download' }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(context.pages()).toHaveLength(1);
    await context.close();
  });

  it('says what happened when the payment tab closes before the payment page arrives, and pays in this tab then', async () => {
    const video = await createVideo(env.database.db, { title: 'Senior Lyrical', priceCents: 2500 });
    const { page, context } = await openPage(browser);
    await routeCheckoutPages(context, stripe);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    // The tab opens and is closed at once (a browser that swallows it, or the visitor).
    await page.evaluate(() => {
      const open = window.open.bind(window);
      window.open = (...args) => {
        const tab = open(...args);
        tab?.close();
        return tab;
      };
    });
    await page.getByLabel('Name').fill('Aroha Smith');
    await page.getByLabel('Email').fill('aroha@example.nz');
    await page.getByRole('button', { name: /Buy Now/ }).click();
    await expect.poll(() => page.url()).toContain(`/video-payment-options?videoId=${video.id}`);
    await expect.poll(() => page.getByText('The secure payment page did not open').isVisible()).toBe(true);
    expect(await page.getByText('Payment System Temporarily Unavailable').count()).toBe(0);
    expect(await page.getByLabel('Email').inputValue()).toBe('aroha@example.nz');
    await page.getByRole('button', { name: 'Card Payment' }).click();
    await expect.poll(() => page.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    await context.close();
  });

  it("takes a parent in Instagram's in-app browser at phone width to Stripe in the same tab and back", async () => {
    const video = await createVideo(env.database.db, { title: 'Junior Tap Trio', priceCents: 1800 });
    const { page, context, errors } = await openPage(browser, {
      width: 390,
      height: 844,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 334.0.4.32.98 (iPhone15,2; iOS 17_5; en_NZ; en-NZ; scale=3.00; 1179x2556; 612234452)',
    });
    await routeCheckoutPages(context, stripe);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    await expect.poll(() => page.getByText('Secure card payment opens in this tab.').isVisible()).toBe(true);
    await page.getByLabel('Name').fill('Mere Parata');
    await page.getByLabel('Email').fill('mere@example.nz');
    await page.getByRole('button', { name: 'Buy Now NZ$18.00' }).click();
    await expect.poll(() => page.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    expect(context.pages()).toHaveLength(1);
    await page.locator('#pay').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/video-purchase-success');
    const link = page.getByRole('link', { name: 'Watch & Download' });
    await expect.poll(() => link.isVisible(), { timeout: 20_000 }).toBe(true);
    const sessionId = new URL(page.url()).searchParams.get('session_id')!;
    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: 'paid', buyerEmail: 'mere@example.nz' });
    const [item] = await env.database.db
      .select()
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, purchase!.id));
    expect(item).toMatchObject({ videoId: video.id });
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
    await context.close();
  });

  it('offers the other options when Stripe fails', async () => {
    // Stripe's failure is logged by the api at error level: expected here.
    expectErrorLogs(/"url":"\/api\/checkout"|Stripe/);
    const video = await createVideo(env.database.db, { title: 'Senior Jazz', priceCents: 2500 });
    const { page, context } = await openPage(browser);
    await routeCheckoutPages(context, stripe);
    await page.goto(`${api.url}/video-payment-options?videoId=${video.id}`);
    await page.getByLabel('Name').fill('Aroha Smith');
    await page.getByLabel('Email').fill('aroha@example.nz');
    stripe.failNextCreate(500, 5);
    await page.getByRole('button', { name: 'Card Payment' }).click();
    await expect.poll(() => page.getByText('Online Payment Unavailable').isVisible()).toBe(true);
    expect(await page.getByText(/restored within 24-48 hours/).isVisible()).toBe(true);

    // Stripe is back: card payment from the options page reaches the payment page.
    stripe.failNextCreate(500, 0);
    const [payment] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Card Payment' }).click(),
    ]);
    await expect.poll(() => payment.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    await context.close();
  });
});
