import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purchases } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { markPublicContentChanged } from '@app/shared/cache-version';
import { createRedis } from '@app/shared/redis';
import { announcePurchaseSettled } from '@app/shared/sales';
import { createStorage } from '@app/shared/storage';
import { downloadedFile, holdAppCode, openPage, playerLoaded, toastText } from '../support/browser.ts';
import { createPurchase, createShowcase, createVideo, SAMPLE_VIDEO_PATH } from '../support/factories.ts';
import { expectErrorLogs } from '../support/guards.ts';
import { useTestWorld } from '../support/world.ts';

// The shop in the browser without any card payment provider configured (the developer default).

const CONTACT_EMAIL = 'orders@stagelight.example';

const { env, api, browser } = useTestWorld({
  processes: { api: true },
  browser: true,
  env: { PUBLIC_CONTACT_EMAIL: CONTACT_EMAIL },
});
const sample = await readFile(SAMPLE_VIDEO_PATH);

/** A playable video in this world's storage, under a fresh key. */
async function storedVideo(overrides: Parameters<typeof createVideo>[1] = {}) {
  const awsKey = `videos/${randomUUID()}.mp4`;
  await createStorage(env.config).put(awsKey, sample, 'video/mp4');
  return createVideo(env.database.db, { awsKey, ...overrides });
}

/** Console errors apart from the failed requests a test provokes on purpose (a 401, 403, 404 or 503). */
/** Videos written behind the api's back: say so, as an admin write would, so its kept lists are read again. */
async function publicContentChanged() {
  const redis = createRedis(env.config.REDIS_URL, 'client');
  await markPublicContentChanged(redis, env.config.QUEUE_PREFIX);
  redis.disconnect();
}

const unexpected = (errors: string[]) => errors.filter((error) => !/status of (401|403|404|503)/.test(error));

describe('the video library', () => {
  it('groups videos by showcase order (loose ones last) and searches title, description and tags', async () => {
    const { db } = env.database;
    const later = await createShowcase(db, { name: 'Winter Gala', orderPriority: 5 });
    const first = await createShowcase(db, { name: 'Spring Recital', orderPriority: 1 });
    await createShowcase(db, { name: 'Empty Showcase', orderPriority: 0 });
    const ballet = await createVideo(db, {
      title: 'Ballet Finale',
      showcaseId: later.id,
      priceCents: 1500,
      tags: ['ballet'],
      previewUrl: 'previews/missing.jpg',
    });
    const jazz = await createVideo(db, {
      title: 'Jazz Hands',
      showcaseId: first.id,
      description: 'An energetic JAZZ routine',
    });
    await createVideo(db, {
      title: 'Hip Hop Crew',
      tags: ['street'],
      passwordProtected: true,
      passwordHash: await hashPassword('crew'),
    });

    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/videos`);
    const headings = page.locator('main h2');
    await expect
      .poll(() => headings.allTextContents())
      .toEqual(['Spring Recital', 'Winter Gala', 'More Videos']);

    const balletCard = page.getByRole('listitem').filter({ hasText: 'Ballet Finale' });
    expect(await balletCard.getByText('NZ$15.00').isVisible()).toBe(true);
    expect(await balletCard.getByRole('link', { name: 'Buy Now' }).getAttribute('href')).toBe(
      `/video/${ballet.id}/purchase`,
    );
    // Its preview does not exist: the placeholder icon takes its place.
    await expect.poll(() => balletCard.getByRole('img', { name: 'No preview' }).isVisible()).toBe(true);
    const jazzCard = page.getByRole('listitem').filter({ hasText: 'Jazz Hands' });
    expect(await jazzCard.getByText('Free', { exact: true }).isVisible()).toBe(true);
    expect(await jazzCard.getByRole('link', { name: 'Get / Download' }).getAttribute('href')).toBe(
      `/video/${jazz.id}/download`,
    );
    const crewCard = page.getByRole('listitem').filter({ hasText: 'Hip Hop Crew' });
    expect(await crewCard.getByText('Protected').isVisible()).toBe(true);

    const search = page.getByLabel('Search videos');
    await search.fill('  STREET ');
    await expect.poll(() => page.getByText('Ballet Finale').count()).toBe(0);
    // The previous results stay on screen until the new ones arrive: wait for the new ones.
    await expect.poll(() => page.getByText('Hip Hop Crew').isVisible()).toBe(true);
    await expect.poll(() => headings.allTextContents()).toEqual(['More Videos']);
    await search.fill('energetic jazz');
    await expect.poll(() => headings.allTextContents()).toEqual(['Spring Recital']);
    await search.fill('ballet');
    await expect.poll(() => headings.allTextContents()).toEqual(['Winter Gala']);
    await search.fill('no such thing');
    await expect.poll(() => page.getByText('No videos match “no such thing”.').isVisible()).toBe(true);
    await search.fill('');
    await expect.poll(() => headings.count()).toBe(3);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('arrives rendered: readable without JavaScript, then the app takes over without asking for its lists', async () => {
    await createVideo(env.database.db, { title: 'Painted On The Server', priceCents: 1200 });
    await publicContentChanged();

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const still = await noScript.newPage();
    await still.goto(`${api.url}/videos`);
    const card = still.getByRole('listitem').filter({ hasText: 'Painted On The Server' });
    expect(await card.getByText('NZ$12.00').isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: 'Buy Now' }).isVisible()).toBe(true);
    // The search box is a plain form until the app runs; the current filter rides along (its select
    // needs the app).
    await still.goto(`${api.url}/videos?price=paid`);
    expect(await still.getByLabel('Price').isDisabled()).toBe(true);
    await still.getByLabel('Search videos').fill('painted');
    await still.keyboard.press('Enter');
    await still.waitForURL((url) => url.searchParams.get('q') === 'painted');
    expect(new URL(still.url()).searchParams.get('price')).toBe('paid');
    expect(await still.getByRole('listitem').filter({ hasText: 'Painted On The Server' }).count()).toBe(1);
    await noScript.close();

    const { page, context, errors } = await openPage(browser);
    const listRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(videos|showcases)$/.test(new URL(request.url()).pathname))
        listRequests.push(request.url());
    });
    // The loading spinner never replaces the painted page on the way, and React adopts the server's
    // markup instead of rendering it again (the painted picture stays the one the visitor sees).
    await page.addInitScript(() => {
      new MutationObserver((mutations) => {
        if (document.querySelector('[role="status"]')) document.documentElement.dataset.spinner = 'shown';
        const root = document.getElementById('root');
        if (mutations.some((mutation) => mutation.target === root && mutation.removedNodes.length > 0))
          document.documentElement.dataset.replaced = 'yes';
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${api.url}/videos`, { waitUntil: 'networkidle' });
    // Searching works only once the app runs: the server's copy has been taken over.
    await page.getByLabel('Search videos').fill('painted');
    await expect.poll(() => page.locator('main li').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.spinner)).toBeUndefined();
    expect(await page.evaluate(() => document.documentElement.dataset.replaced)).toBeUndefined();
    expect(listRequests).toEqual([]);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('searches what was typed before the app ran, once it runs', async () => {
    await createVideo(env.database.db, { title: 'Typed Before The App', priceCents: 1200 });
    await publicContentChanged();
    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    const release = await holdAppCode(page);
    await page.goto(`${api.url}/videos`, { waitUntil: 'domcontentloaded' });
    await page.getByLabel('Search videos').fill('typed before');
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();
    release();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('typed before');
    const results = page.locator('main li');
    await expect.poll(() => results.count()).toBe(1);
    expect(await results.first().textContent()).toContain('Typed Before The App');
    expect(await page.getByLabel('Search videos').inputValue()).toBe('typed before');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('opens the painted phone menu before the app runs, and the app takes it over open', async () => {
    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    // The app's code is held back until the tap has happened, so the tap lands on the server's copy.
    const release = await holdAppCode(page);
    await page.goto(`${api.url}/videos`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    // The browser opens it (a popover): no app needed.
    expect(await menu.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();
    release();

    await expect.poll(() => page.getByRole('button', { name: 'Close menu' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('ready');
    // Still open: the app did not press the button a second time.
    expect(await menu.isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Contact' }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});

describe('the purchase page', () => {
  it('asks for a protected video’s password, clears a wrong one, and unlocks the form with the right one', async () => {
    const video = await createVideo(env.database.db, {
      title: 'Junior Ballet Recital',
      priceCents: 1500,
      passwordProtected: true,
      passwordHash: await hashPassword('recital2026'),
    });
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    const password = page.getByLabel('Video password');
    const verify = page.getByRole('button', { name: 'Verify Password' });
    await expect.poll(() => verify.isVisible()).toBe(true);
    expect(await verify.isDisabled()).toBe(true);

    await password.fill('wrong');
    await verify.click();
    await expect.poll(() => toastText(page, 'Access Denied').isVisible()).toBe(true);
    expect(await toastText(page, 'Incorrect password. Please try again.').isVisible()).toBe(true);
    expect(await password.inputValue()).toBe('');

    await password.fill('recital2026');
    await verify.click();
    await expect.poll(() => toastText(page, 'Access Granted').isVisible()).toBe(true);
    expect(await toastText(page, 'Password verified. You can now proceed with purchase.').isVisible()).toBe(
      true,
    );
    const buy = page.getByRole('button', { name: 'Buy Now NZ$15.00' });
    expect(await buy.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('Aroha');
    expect(await buy.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('aroha@example.nz');
    expect(await buy.isDisabled()).toBe(false);
    // The token is kept for this visit: a reload does not ask again.
    expect(await page.evaluate((id) => sessionStorage.getItem(`videoToken:${id}`), video.id)).toContain(
      'token',
    );
    await page.reload();
    await expect.poll(() => buy.isVisible()).toBe(true);
    expect(await password.count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('says so when the video does not exist', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/video/${randomUUID()}/purchase`);
    await expect.poll(() => page.getByRole('heading', { name: 'Video Not Found' }).isVisible()).toBe(true);
    await expect
      .poll(() => toastText(page, 'The requested video could not be found.').isVisible())
      .toBe(true);
    await page.getByRole('link', { name: 'Back to Videos' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/videos');
    await context.close();
  });

  it('sends a free video to its download page, where it plays at once', async () => {
    const video = await storedVideo({ title: 'Solo Highlights' });
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/${video.id}/download`);
    await expect.poll(() => playerLoaded(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the download page', () => {
  it('plays and downloads a protected free video after the password, clearing a wrong one', async () => {
    const video = await storedVideo({
      title: 'Studio Open Day',
      passwordProtected: true,
      passwordHash: await hashPassword('openday'),
    });
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/video/${video.id}/download`);
    const password = page.getByLabel('Video password');
    await expect.poll(() => password.isVisible()).toBe(true);
    expect(await page.locator('video').count()).toBe(0);

    await page.getByRole('button', { name: 'Download' }).click();
    await expect
      .poll(() => toastText(page, 'Please enter the video password to download.').isVisible())
      .toBe(true);
    await password.fill('wrong');
    await page.getByRole('button', { name: 'Watch Video' }).click();
    await expect.poll(() => toastText(page, 'Invalid password. Please try again.').isVisible()).toBe(true);
    expect(await password.inputValue()).toBe('');

    await password.fill('openday');
    await page.getByRole('button', { name: 'Watch Video' }).click();
    await expect.poll(() => playerLoaded(page)).toBe(true);
    const src = (await page.locator('video').getAttribute('src'))!;
    expect(src.startsWith(`${api.url}/api/files/`)).toBe(true);
    expect(Buffer.from(await (await fetch(src)).arrayBuffer()).equals(sample)).toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    const saved = await downloadedFile(download);
    expect((await readFile(saved)).equals(sample)).toBe(true);
    expect(download.suggestedFilename()).toBe('Studio-Open-Day.mp4');
    await expect.poll(() => toastText(page, 'Download Started').isVisible()).toBe(true);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('plays a paid video only with a paid purchase of it, otherwise sends the visitor to buy it', async () => {
    const video = await storedVideo({ title: 'Senior Contemporary', priceCents: 2500 });
    const other = await storedVideo({ priceCents: 900 });
    const paid = await createPurchase(env.database.db, {
      videoId: video.id,
      status: 'paid',
      amountCents: 2500,
    });
    const otherPaid = await createPurchase(env.database.db, { videoId: other.id, status: 'paid' });
    const { page, context } = await openPage(browser);

    await page.goto(`${api.url}/video/${video.id}/download`);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/${video.id}/purchase`);

    await page.goto(`${api.url}/video/${video.id}/download?session_id=${otherPaid.checkoutSessionId}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/${video.id}/purchase`);
    await expect.poll(() => toastText(page, 'Purchase required').isVisible()).toBe(true);

    await page.goto(`${api.url}/video/${video.id}/download?session_id=${paid.checkoutSessionId}`);
    await expect.poll(() => playerLoaded(page)).toBe(true);
    expect(await page.getByText('Purchased', { exact: true }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('paying without card payments configured', () => {
  it('falls back to the payment options with the notice, keeping the video and the details', async () => {
    // Without a Stripe key the api answers 503 and logs it at error level: expected here.
    expectErrorLogs(/"url":"\/api\/checkout"/);
    const video = await createVideo(env.database.db, { priceCents: 2500, title: 'Senior Jazz' });
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    const buy = page.getByRole('button', { name: /Buy Now/ });
    await expect.poll(() => buy.isVisible()).toBe(true);
    expect(await buy.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('Aroha');
    await page.getByLabel('Email').fill('aroha@example.nz');
    await buy.click();

    await expect.poll(() => page.url()).toContain(`/video-payment-options?videoId=${video.id}`);
    await expect.poll(() => page.getByText('Payment System Temporarily Unavailable').isVisible()).toBe(true);
    expect(await page.getByText(/restored within 24-48 hours/).isVisible()).toBe(true);
    // The payment tab opened for the checkout was closed again.
    expect(context.pages()).toHaveLength(1);
    expect(await page.evaluate(() => sessionStorage.getItem('purchaseVideoId'))).toBe(video.id);
    expect(await page.getByLabel('Name').inputValue()).toBe('Aroha');
    expect(await page.getByLabel('Email').inputValue()).toBe('aroha@example.nz');

    const mailto = (await page.getByRole('link', { name: 'Email Order' }).getAttribute('href'))!;
    expect(mailto).toMatch(
      new RegExp(`^mailto:${CONTACT_EMAIL}\\?subject=Video%20order%3A%20Senior%20Jazz&body=`),
    );
    const body = decodeURIComponent(mailto.split('&body=')[1]!);
    expect(body).toContain('"Senior Jazz" (NZ$25.00)');
    expect(body).toContain('Name: Aroha');
    expect(body).toContain('Email: aroha@example.nz');
    expect(await page.getByRole('link', { name: 'Contact Me' }).getAttribute('href')).toBe('/#contact');

    // Card payment again: still down, so the inline notice points to the other ways.
    await page.getByRole('button', { name: 'Card Payment' }).click();
    await expect.poll(() => page.getByText('Online Payment Unavailable').isVisible()).toBe(true);
    await expect.poll(() => context.pages().length).toBe(1);

    await page.goto(`${api.url}/video-payment-issue?videoId=${video.id}`);
    await expect.poll(() => page.getByText('Payment System Temporarily Unavailable').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Senior Jazz').isVisible()).toBe(true);
    // Email order needs the name and e-mail first.
    expect(await page.getByRole('button', { name: 'Email Order' }).isDisabled()).toBe(true);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});

describe('the purchase success page', () => {
  it('waits for the payment to be recorded, then links to the download', async () => {
    const video = await createVideo(env.database.db, { priceCents: 900 });
    const purchase = await createPurchase(env.database.db, { videoId: video.id, amountCents: 900 });
    const sessionId = purchase.checkoutSessionId!;
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/video-purchase-success?session_id=${sessionId}&video_id=${video.id}`);
    await expect.poll(() => page.getByText(/Confirming your payment/).isVisible()).toBe(true);

    // Paid behind the api's back: say so, as the record-sale job does (the page's request is waiting).
    await env.database.db.update(purchases).set({ status: 'paid' }).where(eq(purchases.id, purchase.id));
    const redis = createRedis(env.config.REDIS_URL, 'client');
    await announcePurchaseSettled(redis, env.config.QUEUE_PREFIX, purchase.id);
    redis.disconnect();
    const link = page.getByRole('link', { name: 'Watch & Download' });
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe(`/video/${video.id}/download?session_id=${sessionId}`);
    // The title arrives with the video's own request, which may still be on its way.
    await expect.poll(() => page.getByText(video.title, { exact: false }).isVisible()).toBe(true);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('explains what went wrong', async () => {
    const video = await createVideo(env.database.db, { priceCents: 900 });
    const failed = await createPurchase(env.database.db, { videoId: video.id, status: 'failed' });
    const { page, context } = await openPage(browser);

    await page.goto(`${api.url}/video-purchase-success`);
    await expect
      .poll(() => page.getByText('Invalid purchase session. Please try again.').isVisible())
      .toBe(true);

    const unknown = `cs_test_${randomUUID().replaceAll('-', '')}`;
    await page.goto(`${api.url}/video-purchase-success?session_id=${unknown}`);
    await expect.poll(() => page.getByText(/We could not identify your video/).isVisible()).toBe(true);
    expect(await page.getByText(unknown.slice(0, 20), { exact: true }).isVisible()).toBe(true);
    expect(
      await page.getByRole('alert').getByRole('link', { name: CONTACT_EMAIL }).getAttribute('href'),
    ).toBe(`mailto:${CONTACT_EMAIL}`);

    await page.goto(`${api.url}/video-purchase-success?session_id=${failed.checkoutSessionId}`);
    await expect
      .poll(() => page.getByText('Failed to process your purchase. Please contact support.').isVisible())
      .toBe(true);
    await context.close();
  });
});
