import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, events, portfolioItems } from '@app/shared/db';
import { createTestEnv, type TestEnv } from '../support/test-env.ts';
import { startApi, startWorker, type RunningApi, type RunningProcess } from '../support/processes.ts';
import { startSmtpCapture, type CapturedMail } from '../support/smtp.ts';
import { launchBrowser, openPage, type Browser } from '../support/browser.ts';

let env: TestEnv;
let api: RunningApi;
let browser: Browser;
let imagesDir: string;
let smtp: CapturedMail;
let worker: RunningProcess;

async function picture(file: string, colour: string) {
  await mkdir(path.dirname(file), { recursive: true });
  await sharp({ create: { width: 960, height: 640, channels: 3, background: colour } })
    .jpeg()
    .toFile(file);
}

beforeAll(async () => {
  imagesDir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-e2e-images-'));
  await picture(path.join(imagesDir, 'hero/stage-hero.jpg'), '#222244');
  await picture(path.join(imagesDir, 'portfolio/solo.jpg'), '#f5b942');
  await picture(path.join(imagesDir, 'attached_assets/event-01.jpg'), '#c2304f');
  smtp = await startSmtpCapture();
  env = await createTestEnv({
    IMAGES_DIR: imagesDir,
    IMAGE_CACHE_DIR: path.join(imagesDir, 'cache'),
    SMTP_URL: smtp.url,
    OWNER_EMAIL: 'owner@stagelight.test',
  });
  const { db } = env.database;
  await db.insert(portfolioItems).values([
    ...Array.from({ length: 15 }, (_, index) => ({
      imageUrl: '/api/images/portfolio/solo.jpg',
      alt: `Soloist number ${index + 1}`,
      category: 'solo',
    })),
    { imageUrl: '/api/images/portfolio/solo.jpg', alt: 'Troupe one', category: 'group' },
    { imageUrl: '/api/images/portfolio/solo.jpg', alt: 'Troupe two', category: 'group' },
  ]);
  await db.insert(events).values([
    {
      title: 'Canterbury Dance Festival',
      description: 'All sections',
      date: '2027-03-14',
      location: 'Christchurch',
      eventType: 'competition',
      imageUrl: '/api/images/attached_assets/event-01.jpg',
      jotformUrl: 'https://form.example/canterbury',
    },
    {
      title: 'Auckland Cup',
      description: 'Bookings soon',
      date: '2027-05-02',
      location: 'Auckland',
      eventType: 'competition',
      imageUrl: '/api/images/attached_assets/event-01.jpg',
    },
  ]);
  [api, worker, browser] = await Promise.all([startApi(env.env), startWorker(env.env), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([api?.stop(), worker?.stop()]);
  await smtp?.close();
  await env?.cleanup();
  await rm(imagesDir, { recursive: true, force: true });
});

describe('the home page', () => {
  it('pages through the portfolio and switches categories', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(api.url);
    await page.getByRole('button', { name: 'View Portfolio' }).click();
    await expect.poll(() => page.getByText('Showing 12 of 15 images').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Load More (3 remaining)' }).click();
    await expect.poll(() => page.getByText('Showing 15 of 15 images').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /Load More/ }).count()).toBe(0);

    await page.getByRole('tab', { name: 'Group Performances' }).click();
    await expect.poll(() => page.getByText('Showing 2 of 2 images').isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Group Performances' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens an image in a lightbox that Escape closes, keeping focus inside while open', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/#portfolio`);
    await page.getByRole('button', { name: 'Open image: Soloist number 1', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('img', { name: 'Soloist number 1' }).isVisible()).toBe(true);
    expect(await dialog.locator('p').getByText('Soloist number 1').isVisible()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    for (let index = 0; index < 3; index++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'Open image: Soloist number 2', exact: true }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists competitions with day-first dates, booking links and Coming Soon', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/#competitions`);
    const book = page.getByRole('link', { name: 'Book Now - No Upfront Cost' });
    await expect.poll(() => book.isVisible()).toBe(true);
    expect(await book.getAttribute('href')).toBe('https://form.example/canterbury');
    expect(await book.getAttribute('target')).toBe('_blank');
    expect(await page.getByText('14 March 2027').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Coming Soon' }).isDisabled()).toBe(true);
    await context.close();
  });

  it('sends an enquiry, confirms it and clears the form', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/#contact`);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => page.getByText('First name is required').isVisible()).toBe(true);

    await page.getByLabel('First name').fill('Mere');
    await page.getByLabel('Last name').fill('Parata');
    await page.getByLabel('Email').fill('mere@example.nz');
    await page.getByLabel('Event type').selectOption('recital');
    await page.getByLabel('Message').fill('Could you film our recital in May?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect
      .poll(() => page.getByTestId('toast').getByText('Message sent and verified successfully!').isVisible())
      .toBe(true);
    expect(
      await page.getByTestId('toast').getByText("I'll get back to you within 24 hours.").isVisible(),
    ).toBe(true);
    expect(await page.getByLabel('First name').inputValue()).toBe('');

    const saved = await env.database.db.select().from(contacts);
    expect(saved).toEqual([expect.objectContaining({ firstName: 'Mere', eventType: 'recital' })]);
    // The worker tells the owner, with a reply-to of the visitor.
    const mail = await smtp.waitFor(
      (message) => message.subject === 'New enquiry from Mere Parata (Recital)',
    );
    expect(mail.replyTo?.value[0]?.address).toBe('mere@example.nz');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells the visitor when an enquiry could not be sent', async () => {
    const { page, context } = await openPage(browser);
    await page.route('**/api/contacts', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Service temporarily unavailable' }),
      }),
    );
    await page.goto(`${api.url}/#contact`);
    await page.getByLabel('First name').fill('Tane');
    await page.getByLabel('Last name').fill('Rua');
    await page.getByLabel('Email').fill('tane@example.nz');
    await page.getByLabel('Message').fill('Hello');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect
      .poll(() => page.getByTestId('toast').getByText('Failed to send message').isVisible())
      .toBe(true);
    expect(await page.getByTestId('toast').getByText('Service temporarily unavailable').isVisible()).toBe(
      true,
    );
    await context.close();
  });

  it('scrolls to a section from the nav and highlights its entry', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(api.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Dance Competitions' }).click();
    await expect
      .poll(() =>
        page.evaluate(() => Math.round(document.getElementById('competitions')!.getBoundingClientRect().top)),
      )
      .toBe(64);
    await expect
      .poll(() => nav.getByRole('link', { name: 'Dance Competitions' }).getAttribute('aria-current'))
      .toBe('location');
    expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    await context.close();
  });

  it('has a phone menu that closes after a choice', async () => {
    const { page, context } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(api.url);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await expect.poll(() => menu.isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Contact' }).click();
    await expect.poll(() => menu.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await context.close();
  });
});

describe('the other public pages', () => {
  it('shows a service page with its FAQ, and links back to contact', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/dance-videographer`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Dance Videographer' }).isVisible())
      .toBe(true);
    expect(await page.getByRole('link', { name: 'View Dance Videos' }).getAttribute('href')).toBe('/videos');
    expect(await page.locator('details').count()).toBe(5);
    await page.getByRole('link', { name: 'Book Videography Services' }).click();
    await expect.poll(() => page.locator('#contact').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers the cover image as PNG and SVG downloads', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/facebook-cover`);
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download as SVG' }).click(),
    ]);
    expect(svg.suggestedFilename()).toBe('dance-photography-facebook-cover.svg');
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download as PNG' }).click(),
    ]);
    expect(png.suggestedFilename()).toBe('dance-photography-facebook-cover.png');
    const file = await png.path();
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
