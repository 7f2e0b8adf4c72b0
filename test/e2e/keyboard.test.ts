import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purchases, videos } from '@app/shared/db';
import { createStorage } from '@app/shared/storage';
import type { Locator, Page } from 'playwright-core';
import { escapeUntilClosed, openPage } from '../support/browser.ts';
import {
  createEnquiry,
  createPortfolioItems,
  createShowcase,
  createVideo,
  SAMPLE_VIDEO_PATH,
} from '../support/factories.ts';
import { routeCheckoutPages } from '../support/fake-stripe.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { shopInBrowser, useTestWorld } from '../support/world.ts';

// The shop and the owner's screens with the keyboard alone (issue 33): no click, no fill; Tab moves,
// Enter and Space press, and every stop on the way shows where focus is.

const { env, api, browser, stripe, smtp } = useTestWorld({
  ...shopInBrowser,
  seed: async ({ database: { db } }) => {
    await createPortfolioItems(db, 4, { alt: 'Soloist number' });
    await createEnquiry(db);
  },
});
const sample = await readFile(SAMPLE_VIDEO_PATH);

/** What the focused element is, and whether it shows a focus indicator (an outline or a ring). */
const focusState = (page: Page, target: Awaited<ReturnType<Locator['elementHandle']>>) =>
  page.evaluate((element) => {
    const active = document.activeElement;
    if (!active || active === document.body) return { reached: false, shown: true, what: 'the page' };
    const style = getComputedStyle(active);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    const what = `${active.tagName.toLowerCase()} "${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 60)}"`;
    return { reached: active === element, shown: outline || ring, what };
  }, target);

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; every element passed on the way shows its focus. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await target.waitFor({ state: 'visible' });
  const handle = await target.elementHandle();
  for (let step = 0; step < max; step++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const state = await focusState(page, handle);
    expect(state.shown, `no visible focus on ${state.what}`).toBe(true);
    if (state.reached) return;
  }
  throw new Error(`Tab did not reach ${String(target)} in ${max} steps`);
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim();
  });

describe('with the keyboard alone', () => {
  it('a parent buys a video: library → video → cart → Stripe → their own library', async () => {
    const showcase = await createShowcase(env.database.db, { name: 'Regional Solos 2026' });
    const awsKey = `videos/${randomUUID()}.mp4`;
    await createStorage(env.config).put(awsKey, sample, 'video/mp4');
    const video = await createVideo(env.database.db, {
      title: 'Mia Solo Jazz',
      priceCents: 1500,
      showcaseId: showcase.id,
      awsKey,
    });
    const { page, context, errors } = await openPage(browser);
    await routeCheckoutPages(context, stripe);

    await page.goto(`${api.url}/videos`);
    await tabTo(
      page,
      page.getByRole('listitem').filter({ hasText: 'Mia Solo Jazz' }).getByRole('link', { name: 'Buy Now' }),
    );
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/${video.id}/purchase`);

    await tabTo(page, page.getByRole('button', { name: 'Add to cart, Mia Solo Jazz' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'In cart, Mia Solo Jazz' }).count()).toBe(1);
    // The header's cart, back up the page.
    await tabTo(page, page.getByRole('link', { name: 'Cart, 1 item' }), { back: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/cart');

    await tabTo(page, page.getByLabel('Name'));
    await page.keyboard.type('Mere Parata');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await page.getByLabel('Email').getAttribute('id'),
    );
    await page.keyboard.type('mere@example.nz');
    const [payment] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);

    // The payment tab: Tab to Pay, Enter.
    await expect.poll(() => payment.url()).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    await tabTo(payment, payment.locator('#pay'));
    await payment.keyboard.press('Enter');
    await expect.poll(() => new URL(payment.url()).pathname).toBe('/video-purchase-success');
    const library = payment.getByRole('link', { name: 'your video library' });
    await expect.poll(() => library.isVisible(), { timeout: 20_000 }).toBe(true);
    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.buyerEmail, 'mere@example.nz'));
    expect(purchase?.status).toBe('paid');

    await tabTo(payment, library);
    await payment.keyboard.press('Enter');
    await expect.poll(() => new URL(payment.url()).pathname).toBe('/my-videos');
    await tabTo(payment, payment.getByLabel('Email'));
    await payment.keyboard.type('mere@example.nz');
    await payment.keyboard.press('Enter');
    await expect.poll(() => payment.getByText('Check your inbox').isVisible()).toBe(true);

    // The e-mailed link opens the sign-in page; from there it is the keyboard again.
    const mail = await smtp.waitFor(
      (message) =>
        JSON.stringify(message.to).includes('mere@example.nz') &&
        String(message.html).includes('Open my videos'),
    );
    const link = new URL(/\S+\/my-videos\/sign-in#\S+/.exec(mail.text ?? '')![0]);
    await payment.goto(`${api.url}${link.pathname}${link.hash}`);
    await tabTo(payment, payment.getByRole('button', { name: 'Open my videos' }));
    await payment.keyboard.press('Enter');
    const list = payment.getByRole('list', { name: 'Your videos' });
    await expect.poll(() => list.getByRole('heading').allTextContents()).toEqual(['Mia Solo Jazz']);
    await tabTo(payment, list.getByRole('link', { name: 'Watch & Download Mia Solo Jazz' }));
    await payment.keyboard.press('Enter');
    await expect.poll(() => new URL(payment.url()).pathname).toBe(`/video/${video.id}/download`);
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
    await context.close();
  }, 90_000);

  it('the owner logs in, publishes a video and answers an enquiry', async () => {
    const hidden = await createVideo(env.database.db, { title: 'Senior Lyrical Group', published: false });
    const { page, context, errors } = await openPage(browser);
    // A reply opens the mail program: record where the link goes instead of leaving the page.
    await context.addInitScript({
      content: `document.addEventListener('click', (event) => {
        const link = event.target instanceof Element && event.target.closest('a[href^="mailto:"]');
        if (link) { event.preventDefault(); window.mailtoOpened = link.getAttribute('href'); }
      }, true);`,
    });
    await page.goto(`${api.url}/admin`);
    await tabTo(page, page.getByLabel('Password'));
    await page.keyboard.type(TEST_ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true);

    await tabTo(page, page.getByRole('link', { name: /Manage Videos/ }));
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/videos');

    // A dialog gives focus back to the button that opened it.
    const edit = page.getByRole('button', { name: 'Edit Senior Lyrical Group' });
    await tabTo(page, edit);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    expect(await page.getByRole('dialog').evaluate((dialog) => dialog.contains(document.activeElement))).toBe(
      true,
    );
    await escapeUntilClosed(page, page.getByRole('dialog'));
    await expect.poll(() => focusedName(page)).toBe('Edit Senior Lyrical Group');

    await tabTo(page, page.getByRole('button', { name: 'Publish Senior Lyrical Group' }));
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => {
        const [row] = await env.database.db.select().from(videos).where(eq(videos.id, hidden.id));
        return row?.published;
      })
      .toBe(true);
    await expect
      .poll(() => page.getByRole('button', { name: 'Hide Senior Lyrical Group' }).isVisible())
      .toBe(true);

    await tabTo(page, page.getByRole('link', { name: 'Back to Admin' }), { back: true });
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('link', { name: /Contact Submissions/ }));
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/contacts');
    await tabTo(page, page.getByRole('link', { name: 'kiri@example.nz' }));
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { mailtoOpened?: string }).mailtoOpened))
      .toBe('mailto:kiri@example.nz');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('keeps the hero still for readers who asked for less motion, with its play control', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(api.url);
    const play = page.getByRole('button', { name: 'Play slideshow' });
    await expect.poll(() => play.isVisible()).toBe(true);
    await tabTo(page, play);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Pause slideshow' }).isVisible()).toBe(true);
    await context.close();
  });
});
