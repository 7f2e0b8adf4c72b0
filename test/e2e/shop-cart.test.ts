import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purchaseItems, purchases, sales } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { createStorage } from '@app/shared/storage';
import { downloadedFile, openPage, type Page } from '../support/browser.ts';
import { createShowcase, createVideo, SAMPLE_VIDEO_PATH } from '../support/factories.ts';
import { routeCheckoutPages } from '../support/fake-stripe.ts';
import { shopInBrowser, useTestWorld } from '../support/world.ts';

// A parent at phone width buys three routines in one go (issue 16's acceptance): two from a showcase
// page, one protected video after its password; one payment through the fake Stripe (its hosted page
// is served by the browser context's router, as in shop-checkout.test.ts); the success page lists three
// downloads whose bytes are the stored files; one receipt e-mail links to each and to the library,
// which shows the three after the e-mailed sign-in; a full refund at Stripe takes all three away.

const { env, api, browser, stripe, smtp } = useTestWorld(shopInBrowser);
const sample = await readFile(SAMPLE_VIDEO_PATH);

const cartCount = (page: Page) =>
  page
    .getByTestId('cart-count')
    .textContent({ timeout: 1_000 })
    .catch(() => null);

/** A stored copy of the sample performance behind a new video. */
async function storedVideo(overrides: Parameters<typeof createVideo>[1]) {
  const awsKey = `videos/${randomUUID()}.mp4`;
  await createStorage(env.config).put(awsKey, sample, 'video/mp4');
  return createVideo(env.database.db, { awsKey, ...overrides });
}

describe('buying several videos with the cart', () => {
  it('adds three videos at phone width (one protected), pays once, downloads all three, finds them in the library until a full refund', async () => {
    const showcase = await createShowcase(env.database.db, {
      name: 'Regional Solos 2026',
      slug: 'regional-solos-2026',
      bundlePriceCents: 3000,
    });
    const solo = await storedVideo({ title: 'Mia Solo Jazz', priceCents: 1500, showcaseId: showcase.id });
    const lyrical = await storedVideo({
      title: 'Mia Solo Lyrical',
      priceCents: 2000,
      showcaseId: showcase.id,
    });
    const locked = await storedVideo({
      title: 'Studio Duo Private',
      priceCents: 1200,
      passwordProtected: true,
      passwordHash: await hashPassword('duet2026'),
    });

    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    await routeCheckoutPages(context, stripe);

    // The showcase page offers its bundle, with the saving, and Add to cart beside each Buy Now.
    await page.goto(`${api.url}/videos/regional-solos-2026`);
    await expect.poll(() => page.getByText('Buy all 2 videos for NZ$30.00').isVisible()).toBe(true);
    expect(await page.getByText('Save NZ$5.00 on NZ$35.00 bought one by one.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Add to cart, Mia Solo Jazz' }).click();
    await expect.poll(() => cartCount(page)).toBe('1');

    // Another tab of the same browser sees the cart, and follows it as it changes.
    const other = await context.newPage();
    await other.goto(`${api.url}/videos`);
    await expect.poll(() => cartCount(other)).toBe('1');
    await page.getByRole('button', { name: 'Add to cart, Mia Solo Lyrical' }).click();
    await expect.poll(() => cartCount(other)).toBe('2');
    await other.close();

    // The protected video goes in once its password is given.
    await page.goto(`${api.url}/video/${locked.id}/purchase`);
    await page.getByLabel('Video password').fill('duet2026');
    await page.getByRole('button', { name: 'Verify Password' }).click();
    await page.getByRole('button', { name: 'Add to cart, Studio Duo Private' }).click();
    await expect.poll(() => cartCount(page)).toBe('3');

    // It survives a reload; the cart page lists each with its showcase and price, and the total.
    await page.goto(`${api.url}/cart`);
    const list = page.getByRole('list', { name: 'Videos in your cart' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    await expect.poll(() => list.getByText('Regional Solos 2026').count()).toBe(2);
    expect(await page.getByTestId('cart-total').textContent()).toBe('NZ$47.00');
    await page.getByLabel('Name').fill('Aroha Smith');
    await page.getByLabel('Email').fill('aroha@example.nz');
    const [payment] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Pay NZ$47.00' }).click(),
    ]);
    await expect.poll(() => payment.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    await expect.poll(() => payment.locator('#amount').textContent()).toBe('47.00 NZD');
    await payment.locator('#pay').click();
    await expect.poll(() => new URL(payment.url()).pathname).toBe('/video-purchase-success');
    const sessionId = new URL(payment.url()).searchParams.get('session_id')!;

    // The success page lists the three, each with its own download, and the library.
    const downloads = payment.getByRole('list', { name: 'Your videos' }).getByRole('link');
    await expect.poll(() => downloads.count(), { timeout: 20_000 }).toBe(3);
    expect(await payment.getByRole('link', { name: 'your video library' }).getAttribute('href')).toBe(
      '/my-videos',
    );
    // What was bought leaves the cart, in the tab the buyer started from too.
    await expect.poll(() => cartCount(page)).toBe(null);

    for (const video of [solo, lyrical, locked]) {
      await payment.goto(`${api.url}/video/${video.id}/download?session_id=${sessionId}`);
      const [file] = await Promise.all([
        payment.waitForEvent('download'),
        payment.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect((await readFile(await downloadedFile(file))).equals(sample)).toBe(true);
    }

    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: 'paid', amountCents: 4700, buyerEmail: 'aroha@example.nz' });
    expect(await env.database.db.$count(sales, eq(sales.purchaseId, purchase!.id))).toBe(1);
    expect(await env.database.db.$count(purchaseItems, eq(purchaseItems.purchaseId, purchase!.id))).toBe(3);

    const receipt = await smtp.waitFor((mail) => mail.subject === 'Your 3 videos from Stagelight Studio');
    for (const video of [solo, lyrical, locked])
      expect(receipt.text).toContain(`/video/${video.id}/download?session_id=${sessionId}`);
    expect(receipt.text).toContain('All your videos, any time: http://localhost:3000/my-videos');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.messages.filter((mail) => mail.subject === receipt.subject)).toHaveLength(1);

    // The receipt's library link: the buyer asks for a sign-in link there, and the library shows the three.
    // (The worker writes links for PUBLIC_URL; the api under test listens elsewhere.)
    const library = new URL(/All your videos, any time: (\S+)/.exec(receipt.text!)![1]!);
    await payment.goto(`${api.url}${library.pathname}`);
    await payment.getByLabel('Email').fill('aroha@example.nz');
    await payment.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const signIn = await smtp.waitFor((mail) => mail.text?.includes('/my-videos/sign-in#') ?? false);
    expect(JSON.stringify(signIn.to)).toContain('aroha@example.nz');
    const link = new URL(/\S+\/my-videos\/sign-in#\S+/.exec(signIn.text!)![0]);
    await payment.goto(`${api.url}${link.pathname}${link.hash}`);
    await payment.getByRole('button', { name: 'Open my videos' }).click();
    const yours = payment.getByRole('list', { name: 'Your videos' });
    const titles = async () => (await yours.getByRole('heading').allTextContents()).sort();
    await expect.poll(titles).toEqual(['Mia Solo Jazz', 'Mia Solo Lyrical', 'Studio Duo Private']);

    // The owner refunds the payment in full at Stripe: its charge.refunded event takes all three away.
    const refund = stripe.signedEvent('charge.refunded', stripe.refund(sessionId));
    const delivered = await fetch(`${api.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': refund.signature },
      body: refund.body,
    });
    expect(delivered.status).toBe(200);
    const statusOf = async () =>
      (await env.database.db.select().from(purchases).where(eq(purchases.id, purchase!.id)))[0]!.status;
    await expect.poll(statusOf).toBe('refunded');
    await payment.reload();
    await expect
      .poll(() => payment.getByText('There are no paid videos for this address.').isVisible())
      .toBe(true);
    expect(await yours.count()).toBe(0);
    expect(errors.filter((error) => !/status of (401|404)/.test(error))).toEqual([]);
    await context.close();
    // One buyer's whole journey, on a machine the other tests share: more than the default 30 s.
  }, 120_000);

  it('buys a showcase bundle: the cart drops the videos it includes, and the payment grants each once', async () => {
    const showcase = await createShowcase(env.database.db, {
      name: 'Junior Groups 2026',
      slug: 'junior-groups-2026',
      bundlePriceCents: 2500,
    });
    const groups = await Promise.all(
      ['Tiny Tappers', 'Hip Hop Minis', 'Ballet Buds'].map((title) =>
        storedVideo({ title, priceCents: 1200, showcaseId: showcase.id }),
      ),
    );
    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    await routeCheckoutPages(context, stripe);
    await page.goto(`${api.url}/videos/junior-groups-2026`);
    await page.getByRole('button', { name: 'Add to cart, Tiny Tappers' }).click();
    await expect.poll(() => cartCount(page)).toBe('1');
    await expect
      .poll(() => page.getByText('Save NZ$11.00 on NZ$36.00 bought one by one.').isVisible())
      .toBe(true);
    await page.getByRole('button', { name: 'Buy all 3 videos for NZ$25.00' }).click();
    await expect
      .poll(() =>
        page
          .getByTestId('toast')
          .getByText(/It includes a video you had added, so it was taken out/)
          .isVisible(),
      )
      .toBe(true);
    await expect.poll(() => cartCount(page)).toBe('1');
    // A video the bundle holds is not added beside it.
    await page.getByRole('button', { name: 'Add to cart, Hip Hop Minis' }).click();
    await expect
      .poll(() =>
        page
          .getByTestId('toast')
          .getByText(/bundle in your cart already includes this video/)
          .isVisible(),
      )
      .toBe(true);

    await page.goto(`${api.url}/cart`);
    const list = page.getByRole('list', { name: 'Videos in your cart' });
    await expect.poll(() => list.getByText('All 3 videos of Junior Groups 2026').isVisible()).toBe(true);
    expect(await list.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Name').fill('Mere Parata');
    await page.getByLabel('Email').fill('mere@example.nz');
    const [payment] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Pay NZ$25.00' }).click(),
    ]);
    await expect.poll(() => payment.locator('#amount').textContent()).toBe('25.00 NZD');
    await payment.locator('#pay').click();
    const downloads = payment.getByRole('list', { name: 'Your videos' }).getByRole('link');
    await expect.poll(() => downloads.count(), { timeout: 20_000 }).toBe(3);
    const sessionId = new URL(payment.url()).searchParams.get('session_id')!;
    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, sessionId));
    const items = await env.database.db
      .select()
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, purchase!.id));
    expect(items.map((item) => item.videoId).sort()).toEqual(groups.map((video) => video.id).sort());
    expect(items.reduce((sum, item) => sum + item.amountCents, 0)).toBe(2500);
    expect(await env.database.db.$count(sales, eq(sales.purchaseId, purchase!.id))).toBe(1);
    const receipt = await smtp.waitFor(
      (mail) => mail.subject === 'Your 3 videos from Stagelight Studio' && mail.text!.includes('Mere Parata'),
    );
    expect(receipt.text).toContain('(Junior Groups 2026 bundle)');
    expect(errors.filter((error) => !/status of (401|404)/.test(error))).toEqual([]);
    await context.close();
  });
});
