import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createStorage } from '@app/shared/storage';
import { downloadedFile, openPage, playerLoaded } from '../support/browser.ts';
import { createPurchase, createShowcase, createVideo, SAMPLE_VIDEO_PATH } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

// A parent on a phone finds their videos again: the footer's My Videos, an e-mailed sign-in link read
// from the SMTP capture, the library, one video played and downloaded, sign out.

const { env, api, browser, smtp } = useTestWorld({
  smtp: true,
  worker: true,
  processes: { api: true },
  browser: true,
});
const sample = await readFile(SAMPLE_VIDEO_PATH);

describe("the buyer's library", () => {
  it('signs a parent in by e-mail at phone width, shows their videos, plays and downloads one, signs out', async () => {
    const db = env.database.db;
    const awsKey = `videos/${randomUUID()}.mp4`;
    await createStorage(env.config).put(awsKey, sample, 'video/mp4');
    const showcase = await createShowcase(db, { name: 'Canterbury Dance Festival' });
    const solo = await createVideo(db, {
      title: 'Junior Solo Jazz',
      priceCents: 1500,
      awsKey,
      showcaseId: showcase.id,
    });
    const group = await createVideo(db, {
      title: 'Senior Lyrical Group',
      priceCents: 2500,
      showcaseId: showcase.id,
    });
    const refunded = await createVideo(db, { title: 'Refunded Tap Duo', priceCents: 1200 });
    const strangers = await createVideo(db, { title: 'Someone Else Hip Hop', priceCents: 900 });
    await createPurchase(db, {
      videoId: group.id,
      buyerEmail: 'mere@example.nz',
      status: 'paid',
      paidAt: new Date(Date.now() - 7 * 24 * 3600_000),
    });
    await createPurchase(db, {
      videoId: solo.id,
      buyerEmail: 'Mere@Example.nz',
      status: 'paid',
      paidAt: new Date(),
    });
    await createPurchase(db, { videoId: refunded.id, buyerEmail: 'mere@example.nz', status: 'refunded' });
    await createPurchase(db, { videoId: strangers.id, buyerEmail: 'aroha@example.nz', status: 'paid' });

    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(api.url);
    await page
      .getByRole('navigation', { name: 'Quick links' })
      .getByRole('link', { name: 'My Videos' })
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/my-videos');
    await page.getByLabel('Email').fill('  MERE@example.nz ');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByText('Check your inbox').isVisible()).toBe(true);

    const mail = await smtp.waitFor((message) => JSON.stringify(message.to).includes('mere@example.nz'));
    expect(mail.html).toContain('Open my videos');
    const sent = /\S+\/my-videos\/sign-in#\S+/.exec(mail.text ?? '')?.[0];
    expect(sent).toBeDefined();
    // The worker writes links for PUBLIC_URL; the api under test listens elsewhere.
    const link = new URL(sent!);
    await page.goto(`${api.url}${link.pathname}${link.hash}`);
    await page.getByRole('button', { name: 'Open my videos' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/my-videos');
    // The token left the address bar.
    expect(new URL(page.url()).hash).toBe('');

    const list = page.getByRole('list', { name: 'Your videos' });
    await expect
      .poll(() => list.getByRole('heading').allTextContents())
      .toEqual(['Junior Solo Jazz', 'Senior Lyrical Group']);
    expect(await page.getByText('Signed in as mere@example.nz').isVisible()).toBe(true);
    expect(await page.getByText('Refunded Tap Duo').count()).toBe(0);
    expect(await page.getByText('Someone Else Hip Hop').count()).toBe(0);

    await list.getByRole('link', { name: 'Watch & Download Junior Solo Jazz' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/${solo.id}/download`);
    await expect.poll(() => playerLoaded(page), { timeout: 15_000 }).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect((await readFile(await downloadedFile(download))).equals(sample)).toBe(true);

    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/my-videos');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Email me a sign-in link' }).isVisible())
      .toBe(true);
    await page.reload();
    await expect
      .poll(() => page.getByRole('button', { name: 'Email me a sign-in link' }).isVisible())
      .toBe(true);
    expect(await page.getByText('Junior Solo Jazz').count()).toBe(0);

    // The same link again: it says so, and offers a new one for the same address.
    await page.goto(`${api.url}${link.pathname}${link.hash}`);
    await page.getByRole('button', { name: 'Open my videos' }).click();
    await expect
      .poll(() =>
        page.getByText('This sign-in link has already been used. Ask for a new one below.').isVisible(),
      )
      .toBe(true);
    expect(await page.getByLabel('Email').inputValue()).toBe('mere@example.nz');
    await page.getByRole('button', { name: 'Email me a new link' }).click();
    await expect.poll(() => page.getByText('Check your inbox').isVisible()).toBe(true);
    await expect
      .poll(
        () =>
          smtp.messages.filter((message) => JSON.stringify(message.to).includes('mere@example.nz')).length,
      )
      .toBe(2);

    // Signed out, the library asks for a link (401) and a used link is refused (400): expected, not errors.
    expect(errors.filter((error) => !/status of (401|400)/.test(error))).toEqual([]);
    await context.close();
  });
});
