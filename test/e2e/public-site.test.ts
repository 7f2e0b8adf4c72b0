import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { contacts } from '@app/shared/db';
import { findServicePageHead, homeMeta, hero as homeHero } from '@app/shared/site-copy';
import {
  appReady,
  downloadedFile,
  escapeUntilClosed,
  holdAppCode,
  openPage,
  type Page,
} from '../support/browser.ts';
import { findServicePage } from '@app/shared/site-copy/service-pages';
import { createEvent, createPortfolioItems } from '../support/factories.ts';
import { sitePicturesEnv } from '../support/media.ts';
import { useTestWorld } from '../support/world.ts';

const { env, api, browser, smtp } = useTestWorld({
  smtp: true,
  processes: { api: true, worker: true },
  browser: true,
  env: async ({ dir }) => ({ ...(await sitePicturesEnv(dir)), OWNER_EMAIL: 'owner@stagelight.test' }),
  seed: async ({ database: { db } }) => {
    const imageUrl = '/api/images/portfolio/solo.jpg';
    await createPortfolioItems(db, 15, { alt: 'Soloist number', imageUrl });
    await createPortfolioItems(db, 2, { alt: 'Troupe', category: 'group', imageUrl });
    await createEvent(db, {
      title: 'Canterbury Dance Festival',
      date: '2027-03-14',
      jotformUrl: 'https://form.example/canterbury',
    });
    await createEvent(db, { title: 'Auckland Cup', date: '2027-05-02', location: 'Auckland' });
  },
});

const contactTop = (page: Page) =>
  page.evaluate(() => Math.round(document.getElementById('contact')!.getBoundingClientRect().top));

describe('the home page', () => {
  it('pages through the portfolio and switches categories', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(api.url);
    await page.getByRole('button', { name: 'View Portfolio' }).click();
    await expect.poll(() => page.getByText('Showing 12 of 15 images').isVisible()).toBe(true);
    // The smooth scroll ends with the gallery under the header; a click while it still moves the page
    // can land beside the button on a busy machine.
    const settledTop = () =>
      page.evaluate(
        () =>
          new Promise<number | null>((resolve) => {
            const top = () => Math.round(document.getElementById('portfolio')!.getBoundingClientRect().top);
            const before = top();
            requestAnimationFrame(() =>
              requestAnimationFrame(() => resolve(top() === before ? before : null)),
            );
          }),
      );
    await expect.poll(settledTop).toBe(64);
    await page.getByRole('button', { name: 'Load More (3 remaining)' }).click();
    await expect.poll(() => page.getByText('Showing 15 of 15 images').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /Load More/ }).count()).toBe(0);

    await page.getByRole('tab', { name: 'Group Performances' }).click();
    await expect.poll(() => page.getByText('Showing 2 of 2 images').isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Group Performances' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    // Arrow keys move between the tabs, and a new category starts again at 12.
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Solo Performances' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-solo');
    await expect.poll(() => page.getByText('Showing 12 of 15 images').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens an image in a lightbox that Escape closes, keeping focus inside while open', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/#portfolio`);
    await page.getByRole('button', { name: 'Open image: Soloist number 1', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => dialog.getByRole('img', { name: 'Soloist number 1' }).isVisible()).toBe(true);
    expect(await dialog.locator('p').getByText('Soloist number 1').isVisible()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    for (let index = 0; index < 3; index++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

    await escapeUntilClosed(page, dialog);
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Open image: Soloist number 1');
    await page.getByRole('button', { name: 'Open image: Soloist number 2', exact: true }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // A click beside the picture (the backdrop) closes it too.
    await page.getByRole('button', { name: 'Open image: Soloist number 3', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    // Open for clicks once focus is inside it: the dialog's outside-click and focus layers start in the
    // same effects, after the first paint (a loaded machine once clicked between the two).
    await expect
      .poll(() => page.getByRole('dialog').evaluate((element) => element.contains(document.activeElement)))
      .toBe(true);
    await page.mouse.click(20, 400);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
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

  it('opens with the lists the page arrived with, without asking for them', async () => {
    const { page, context, errors } = await openPage(browser);
    const listRequests: string[] = [];
    page.on('request', (request) => {
      if (/^\/api\/(portfolio|events)/.test(new URL(request.url()).pathname))
        listRequests.push(request.url());
    });
    await page.goto(api.url, { waitUntil: 'networkidle' });
    expect(await page.getByText('Canterbury Dance Festival').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Open image: Soloist number/ }).count()).toBe(12);
    expect(await page.getByTestId('gallery-placeholder').count()).toBe(0);
    expect(await page.getByTestId('event-placeholder').count()).toBe(0);
    expect(listRequests).toEqual([]);
    // The app's code is asked for only once the painted page is on screen (web/start-after-paint.ts).
    // On a loaded machine the browser may record either entry a moment after the page settles.
    const timings = () =>
      page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        app: performance
          .getEntriesByType('resource')
          .find((entry) => /\/assets\/index-[^/]+\.js$/.test(entry.name))?.startTime,
      }));
    await expect
      .poll(async () => Object.values(await timings()).every((time) => time !== undefined), {
        timeout: 10_000,
      })
      .toBe(true);
    const started = await timings();
    expect(started.app).toBeGreaterThan(started.paint!);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows placeholders while loading, then the error texts when loading fails', async () => {
    const { page, context } = await openPage(browser);
    // As the page goes out when its lists could not be read with it (empty, without its lists): the app
    // renders it and asks for them itself.
    await page.route(api.url + '/', async (route) => {
      const response = await route.fetch();
      const body = (await response.text())
        .replace(/<script id="page-data"[^]*?<\/script>/, '')
        .replace(/<div id="root" data-hydrate>[^]*<\/div>(\s*<\/body>)/, '<div id="root"></div>$1');
      await route.fulfill({ response, body });
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/(portfolio\?category=|events$)/, async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' });
    });
    await page.goto(api.url);
    await expect.poll(() => page.getByTestId('gallery-placeholder').count()).toBe(8);
    expect(await page.getByTestId('event-placeholder').count()).toBe(3);
    release();
    await expect.poll(() => page.getByText('Failed to fetch portfolio').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Failed to fetch events').isVisible()).toBe(true);
    await context.close();
  });

  it("marks a picture that cannot be loaded with 'Failed to load'", async () => {
    const { page, context } = await openPage(browser);
    await page.route('**/api/images/portfolio/**', (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${api.url}/#portfolio`);
    await expect.poll(() => page.getByText('Failed to load', { exact: true }).count()).toBeGreaterThan(0);
    await context.close();
  });

  it('opens the app in a new tab and lets the slideshow be paused and chosen', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(api.url);
    const app = page.getByRole('link', { name: 'Install my App' });
    expect(await app.getAttribute('href')).toBe('https://app.stagelight.test/');
    expect(await app.getAttribute('target')).toBe('_blank');
    // The fixed hero picture and four portfolio pictures.
    const dots = page.getByRole('button', { name: /^Show slide \d of 5$/ });
    await expect.poll(() => dots.count()).toBe(5);
    await page.getByRole('button', { name: 'Pause slideshow' }).click();
    await page.getByRole('button', { name: 'Show slide 3 of 5' }).click();
    expect(await page.getByRole('button', { name: 'Show slide 3 of 5' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await page.getByRole('button', { name: 'Play slideshow' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
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
    await appReady(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await expect.poll(() => menu.isVisible()).toBe(true);
    // The label follows the popover's toggle event, which comes a task after it opens or closes.
    await expect.poll(() => page.getByRole('button', { name: 'Close menu' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Open menu');
    // From the keyboard: the menu's links come next after its button.
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Home');
    await menu.getByRole('link', { name: 'Contact' }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await context.close();
  });

  it('has a phone menu in a browser without popovers (Safari before 17)', async () => {
    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    // As such a browser: no popover API for the app, and no popover in the page it adopts (a button's
    // popovertarget stays, as such a browser keeps an attribute it does not know, and names no popover).
    await page.addInitScript(() => {
      for (const name of ['popover', 'showPopover', 'hidePopover', 'togglePopover'])
        delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
      document.addEventListener('DOMContentLoaded', () => {
        for (const element of document.querySelectorAll('[popover]')) element.removeAttribute('popover');
      });
    });
    // The first tap lands before the app runs (its code held back until then): the app presses it.
    const release = await holdAppCode(page);
    await page.goto(api.url, { waitUntil: 'domcontentloaded' });
    const menu = page.locator('#mobile-menu');
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await menu.isVisible()).toBe(false);
    release();
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('ready');
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Contact' }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lands a /#section address under the header', async () => {
    const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(`${api.url}/#contact`);
    await expect.poll(() => page.getByText('Auckland Cup').count()).toBe(1);
    await expect.poll(() => contactTop(page), { timeout: 10_000 }).toBe(64);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the first paint (the components rendered by the server)', () => {
  it('reads home and a service page without JavaScript', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(api.url);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(homeHero.heading);
    expect(await page.getByRole('button', { name: 'View Portfolio' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Open image: Soloist number/ }).count()).toBe(12);
    const tile = page.getByRole('img', { name: 'Soloist number 1', exact: true });
    await tile.scrollIntoViewIfNeeded();
    await expect
      .poll(() => tile.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    // Sections that fade in once the app runs are shown as they are without it.
    const festival = page.getByText('Canterbury Dance Festival');
    await festival.scrollIntoViewIfNeeded();
    expect(await festival.isVisible()).toBe(true);
    expect(await festival.evaluate((element) => getComputedStyle(element.closest('.reveal')!).opacity)).toBe(
      '1',
    );
    expect(await page.getByRole('link', { name: 'Book Now - No Upfront Cost' }).getAttribute('href')).toBe(
      'https://form.example/canterbury',
    );

    // The phone menu opens without the app, and its links are real addresses.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.getByRole('link', { name: 'Videos' }).getAttribute('href')).toBe('/videos');

    await page.goto(`${api.url}/dance-videographer`);
    const service = findServicePage('/dance-videographer')!;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(service.heading);
    const faq = service.faqs[0]!;
    await page.getByText(faq.question).click();
    expect(await page.getByText(faq.answer).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'View Dance Videos' }).getAttribute('href')).toBe('/videos');
    await context.close();
  });

  it.each(['/', '/dance-videographer'])(
    'takes %s over as painted: the same elements, no layout shift, no error',
    async (path) => {
      const { page, context, errors } = await openPage(browser, { width: 390, height: 844 });
      await page.addInitScript(() => {
        const kept = window as unknown as { shift: number; painted?: Element | null };
        kept.shift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >)
            if (!entry.hadRecentInput) kept.shift += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        document.addEventListener('DOMContentLoaded', () => (kept.painted = document.querySelector('h1')));
      });
      await page.goto(`${api.url}${path}`);
      await appReady(page);
      // Hydrated, not rendered again: the heading painted from the server is the one React now holds.
      expect(
        await page.evaluate(() => {
          const kept = window as unknown as { painted?: Element | null };
          return Boolean(kept.painted) && kept.painted === document.querySelector('h1');
        }),
      ).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
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
    expect(await page.title()).toBe(findServicePageHead('/dance-videographer')!.title);
    await page.getByRole('link', { name: 'Book Videography Services' }).click();
    // Home arrives at /#contact and lands the section under the header once the gallery and events
    // above it have loaded and grown.
    await expect.poll(() => page.getByText('Showing 12 of 15 images').count()).toBe(1);
    await expect.poll(() => contactTop(page), { timeout: 10_000 }).toBe(64);
    expect(page.url()).toBe(`${api.url}/#contact`);
    // The head follows the page the visitor is on.
    expect(await page.title()).toBe(homeMeta.title);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${api.url}/`);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(homeMeta.description);
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
    const file = await downloadedFile(png);
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
