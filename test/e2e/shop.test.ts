import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { createStorage } from '@app/shared/storage';
import { createTestEnv, type TestEnv } from '../support/test-env.ts';
import { startApi, type RunningApi } from '../support/processes.ts';
import { launchBrowser, openPage, type Browser } from '../support/browser.ts';
import { createShowcase, createVideo } from '../support/factories.ts';

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

describe('the video shop', () => {
  it('groups the library by showcase and searches it', async () => {
    const { db } = env.database;
    const showcase = await createShowcase(db, { name: 'Spring Recital', orderPriority: 0 });
    await createVideo(db, {
      title: 'Ballet Finale',
      showcaseId: showcase.id,
      priceCents: 1500,
      tags: ['ballet'],
    });
    await createVideo(db, { title: 'Hip Hop Crew', showcaseId: null, tags: ['street'] });
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/videos`);
    await expect.poll(() => page.getByRole('heading', { name: 'Spring Recital' }).isVisible()).toBe(true);
    expect(await page.getByText('NZ$15.00').isVisible()).toBe(true);
    await page.getByLabel('Search videos').fill('  STREET ');
    await expect.poll(() => page.getByText('Ballet Finale').count()).toBe(0);
    expect(await page.getByText('Hip Hop Crew').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('plays a protected free video after the right password, clearing a wrong one', async () => {
    const key = `videos/${randomUUID()}.mp4`;
    await createStorage(env.config).put(key, Buffer.from('not really a video'), 'video/mp4');
    const video = await createVideo(env.database.db, {
      awsKey: key,
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/video/${video.id}/download`);
    await page.getByLabel('Video password').fill('wrong');
    await page.getByRole('button', { name: 'Watch Video' }).click();
    await expect
      .poll(() => page.getByTestId('toast').getByText('Invalid password. Please try again.').isVisible())
      .toBe(true);
    expect(await page.getByLabel('Video password').inputValue()).toBe('');
    await page.getByLabel('Video password').fill('encore');
    await page.getByRole('button', { name: 'Watch Video' }).click();
    const player = page.locator('video');
    await expect.poll(() => player.count()).toBe(1);
    const src = await player.getAttribute('src');
    expect(src).toContain('/api/files/');
    expect(src!.startsWith(api.url)).toBe(true);
    expect((await fetch(src!)).status).toBe(200);
    await context.close();
  });

  it('offers the other ways to pay when card payment is unavailable', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2500, title: 'Senior Jazz' });
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/video/${video.id}/purchase`);
    const buy = page.getByRole('button', { name: /Buy Now/ });
    await expect.poll(() => buy.isVisible()).toBe(true);
    expect(await buy.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('Aroha');
    await page.getByLabel('Email').fill('aroha@example.nz');
    await buy.click();
    await expect.poll(() => page.url()).toContain(`/video-payment-issue?videoId=${video.id}`);
    await expect.poll(() => page.getByText('Payment System Temporarily Unavailable').isVisible()).toBe(true);
    expect(await page.getByText(/restored within 24-48 hours/).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Email Order' }).getAttribute('href')).toMatch(
      /^mailto:.*Senior%20Jazz/,
    );
    await context.close();
  });

  it('shows the download link once a purchase is paid', async () => {
    const video = await createVideo(env.database.db, { priceCents: 900 });
    const sessionId = `cs_test_${randomUUID()}`;
    await env.database.db.insert(purchases).values({
      videoId: video.id,
      checkoutSessionId: sessionId,
      buyerName: 'A',
      buyerEmail: 'a@example.nz',
      amountCents: 900,
      currency: 'nzd',
      status: 'paid',
    });
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/video-purchase-success?session_id=${sessionId}&video_id=${video.id}`);
    const link = page.getByRole('link', { name: 'Watch & Download' });
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe(`/video/${video.id}/download?session_id=${sessionId}`);
    await page.goto(`${api.url}/video-purchase-success`);
    await expect
      .poll(() => page.getByText('Invalid purchase session. Please try again.').isVisible())
      .toBe(true);
    await context.close();
  });
});
