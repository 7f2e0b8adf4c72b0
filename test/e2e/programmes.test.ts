import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { purchaseItems, purchases } from '@app/shared/db';
import { applyEntryText, findEntry } from '@app/shared/programme';
import { createStorage } from '@app/shared/storage';
import { appReady, openPage } from '../support/browser.ts';
import { createShowcase, createVideo, SAMPLE_VIDEO_PATH } from '../support/factories.ts';
import { routeCheckoutPages } from '../support/fake-stripe.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { shopInBrowser, useTestWorld } from '../support/world.ts';

// Issue 29's walk at phone width (decision 032): the owner imports the committed 300-row programme,
// fixes the two rows the preview flags and imports; a parent types "maia ngata", finds "Māia N.",
// opens her page with her four routines, buys all four in one checkout through the fake Stripe and
// finds them in her library; "#47" finds entry 47; a routine not online yet takes an address for one
// e-mail (decision 035); the page is noindex, no sitemap names a dancer, and 200 name searches from
// one address are refused (429) long before the 200th.

const { env, api, browser, stripe, smtp } = useTestWorld(shopInBrowser);
const phone = { width: 390, height: 844 };
vi.setConfig({ testTimeout: 120_000 });

describe('competition programmes in the browser', () => {
  it('imports a programme, finds a dancer by name and number, and buys all her routines', async () => {
    const { db } = env.database;
    const showcase = await createShowcase(db, {
      name: 'Southern Champs 2027',
      slug: 'southern-champs-2027',
      routineBundleRule: { kind: 'percent', percentOff: 25 },
    });

    // The owner, on her phone.
    const owner = await openPage(browser, phone);
    await owner.page.goto(`${api.url}/admin`);
    await owner.page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await owner.page.getByRole('button', { name: 'Login' }).click();
    await owner.page.getByRole('link', { name: /Programmes/ }).click();
    await owner.page.getByLabel('Competition').selectOption(showcase.id);
    const file = await readFile(new URL('../fixtures/programme-300.csv', import.meta.url));
    await owner.page
      .getByLabel('Programme file')
      .setInputFiles({ name: 'programme.csv', mimeType: 'text/csv', buffer: file });
    await expect
      .poll(() => owner.page.getByText('Row 202: Entry 120 appears twice (also on row 121)').isVisible())
      .toBe(true);
    expect(await owner.page.getByText('Row 251: Entry 250 names no dancer').isVisible()).toBe(true);
    expect(await owner.page.getByRole('button', { name: /^Import/ }).isDisabled()).toBe(true);

    const lines = file.toString('utf8').split('\r\n');
    lines[201] = lines[201]!.replace(/^120,/, '201,');
    lines[250] = lines[250]!.replace(',,', ',Ruby Clarke,');
    await owner.page.getByLabel('Programme file').setInputFiles({
      name: 'programme.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(lines.join('\r\n')),
    });
    await owner.page.getByRole('button', { name: 'Import 300 entries' }).click();
    await expect.poll(() => owner.page.getByText('Entries (300)').isVisible()).toBe(true);
    await owner.context.close();

    // Her four routines are filmed and online.
    const sample = await readFile(SAMPLE_VIDEO_PATH);
    const entryIds: string[] = [];
    for (const number of ['47', '12', '88', '103']) {
      const entry = (await findEntry(db, showcase.id, number))!;
      const awsKey = `videos/${randomUUID()}.mp4`;
      await createStorage(env.config).put(awsKey, sample, 'video/mp4');
      await createVideo(db, {
        showcaseId: showcase.id,
        entryId: entry.id,
        ownText: false,
        priceCents: 1500,
        awsKey,
      });
      entryIds.push(entry.id);
    }
    await applyEntryText(db, entryIds);

    // A parent, on hers.
    const { page, context, errors } = await openPage(browser, phone);
    await routeCheckoutPages(context, stripe);

    // From another showcase's QR code (the library filtered to it) her name finds nothing there, and
    // the page offers every showcase, where she is.
    await createShowcase(db, { name: 'Winter Recital 2026', slug: 'winter-recital-2026' });
    const scoped = page.waitForResponse((response) => response.url().includes('/api/programme/search'));
    await page.goto(`${api.url}/videos?showcase=winter-recital-2026&q=maia+ngata`);
    expect(new URL((await scoped).url()).searchParams.get('showcase')).toBe('winter-recital-2026');
    const everywhere = page.getByRole('link', { name: 'Search every showcase for “maia ngata”' });
    await expect.poll(() => everywhere.isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'In the programmes' }).count()).toBe(0);
    await everywhere.click();
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'In the programmes' })
          .getByRole('link', { name: /^Māia N\.\s*4 routines$/ })
          .isVisible(),
      )
      .toBe(true);

    await page.goto(`${api.url}/videos`);
    await page.getByLabel('Search videos').fill('#47');
    const programme = page.getByRole('region', { name: 'In the programmes' });
    await expect
      .poll(() => programme.getByRole('heading', { name: 'Item 47: Firefly' }).isVisible())
      .toBe(true);
    expect(await programme.getByRole('heading', { level: 3 }).nth(1).textContent()).toBe('Item 47: Firefly');

    // The competition's own page searches its programme: it opens the library filtered to it.
    await page.goto(`${api.url}/videos/southern-champs-2027`);
    await appReady(page);
    await page.getByRole('searchbox', { name: 'Search Southern Champs 2027' }).fill('#47');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).search).toBe('?q=%2347&showcase=southern-champs-2027');
    await expect
      .poll(() => programme.getByRole('heading', { name: 'Item 47: Firefly' }).isVisible())
      .toBe(true);
    await page.goto(`${api.url}/videos`);

    // Until the programmes answer, the page suggests no other words: her name may well be there.
    // (Programme searches wait for `answer()` from here on; after it they pass straight through.)
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      (url) => url.pathname === '/api/programme/search',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.getByLabel('Search videos').fill('maia ngata');
    await expect
      .poll(() => page.getByText('Looking for “maia ngata” in the competition programmes…').isVisible())
      .toBe(true);
    expect(await page.getByText(/Try an entry number|No videos match/).count()).toBe(0);
    answer();
    // The dancer's own link (a routine's dancers link to her page too).
    const dancer = programme.getByRole('link', { name: /^Māia N\.\s*4 routines$/ });
    await expect.poll(() => dancer.isVisible()).toBe(true);
    // No video title holds her name (names stay off videos); the page says where her routines are instead
    // of suggesting a search by name.
    await expect
      .poll(() =>
        page
          .getByText('No video titles match “maia ngata”: the programme results above lead to the routines.')
          .isVisible(),
      )
      .toBe(true);
    expect(await page.getByText(/Try an entry number/).count()).toBe(0);
    await dancer.click();
    await expect.poll(() => page.getByRole('heading', { name: "Māia N.'s routines" }).isVisible()).toBe(true);
    expect(new URL(page.url()).search).toBe('');
    const dancerPage = page.url();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.getByRole('heading', { name: /^Item \d+/ }).count()).toBe(4);

    await page.getByRole('button', { name: "Buy all of Māia N.'s routines (4) for NZ$45.00" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/cart');
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe('NZ$45.00');
    await page.getByLabel('Name').fill('Hine Ngata');
    await page.getByLabel('Email').fill('hine@example.nz');
    const [payment] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Pay NZ$45.00' }).click(),
    ]);
    await expect.poll(() => payment.locator('#amount').textContent()).toBe('45.00 NZD');
    await payment.locator('#pay').click();
    await expect.poll(() => new URL(payment.url()).pathname).toBe('/video-purchase-success');
    const downloads = payment.getByRole('list', { name: 'Your videos' }).getByRole('link');
    await expect.poll(() => downloads.count(), { timeout: 20_000 }).toBe(4);
    const sessionId = new URL(payment.url()).searchParams.get('session_id')!;
    const [purchase] = await db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: 'paid', amountCents: 4500 });
    expect(await db.$count(purchaseItems, eq(purchaseItems.purchaseId, purchase!.id))).toBe(4);

    // The page as a crawler gets it: noindex, and no child's name anywhere in its head or body.
    const html = await (await fetch(dancerPage)).text();
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).not.toMatch(/Māia|Ngata/);
    // Opened from a shared link, the page asks for her answer once, with the page itself: the head's
    // preload, which the page's own fetch takes over (decision 035).
    await page.goto(dancerPage);
    await expect.poll(() => page.getByRole('heading', { name: "Māia N.'s routines" }).isVisible()).toBe(true);
    const asked = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/api/dancers/'))
        .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
    );
    expect(asked).toEqual(['link']);

    // Her library (My Videos, signed in by an e-mailed link) holds the four.
    await page.goto(`${api.url}/my-videos`);
    await page.getByLabel('Email').fill('hine@example.nz');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const signIn = await smtp.waitFor((mail) => /\/my-videos\/sign-in#/.test(mail.text ?? ''));
    const link = new URL(/\S+\/my-videos\/sign-in#\S+/.exec(signIn.text!)![0]);
    await page.goto(`${api.url}${link.pathname}${link.hash}`);
    await page.getByRole('button', { name: 'Open my videos' }).click();
    const library = page.getByRole('list', { name: 'Your videos' });
    await expect.poll(() => library.getByRole('heading').count()).toBe(4);
    const bought = await library.getByRole('heading').allTextContents();
    expect(bought.map((title) => /^Item (\d+)\b/.exec(title)?.[1]).sort()).toEqual(['103', '12', '47', '88']);

    // A routine not online yet: "tell me when it is online" takes an address and sends a confirmation.
    await page.goto(`${api.url}/videos`);
    await page.getByLabel('Search videos').fill('#48');
    const routine = programme.getByRole('listitem').filter({ hasText: 'Item 48' });
    await routine.getByRole('button', { name: 'Tell me when it is online' }).click();
    await routine.getByLabel('Your e-mail').fill('hine@example.nz');
    await routine.getByRole('button', { name: 'Tell me when it is online' }).click();
    await expect.poll(() => routine.getByRole('status').textContent()).toMatch(/^\s*Check your e-mail/);
    const confirmation = await smtp.waitFor((mail) =>
      /^Confirm: tell me when Item 48/.test(mail.subject ?? ''),
    );
    expect(JSON.stringify(confirmation.to)).toContain('hine@example.nz');

    // No sitemap names a dancer or links a dancer's or a studio's page.
    const index = await (await fetch(`${api.url}/sitemap.xml`)).text();
    const maps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const xml = await (await fetch(`${api.url}${map}`)).text();
      expect(xml, map).not.toMatch(/Māia|Maia|Ngata|\/dancers\/|\/studios\//i);
    }
    // Signed out, My Videos first asks who you are (a 401): expected, not an error.
    expect(errors.filter((error) => !/status of 401 .*\/api\/my-videos\)$/.test(error))).toEqual([]);
    await context.close();

    // Walking names from one address: refused with 429 long before 200 searches.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    let refusedAt = -1;
    for (let count = 1; count <= 200 && refusedAt < 0; count += 1) {
      const q = `${letters[count % 26]}${letters[Math.floor(count / 26) % 26]}a`;
      const answer = await fetch(`${api.url}/api/programme/search?q=${q}`);
      if (answer.status === 429) refusedAt = count;
      else expect(answer.status).toBe(200);
    }
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt).toBeLessThan(200);

    // The library says so in words from this address now, and entry numbers still answer.
    const refused = await openPage(browser, { width: 390, height: 844 });
    await refused.page.goto(`${api.url}/videos`);
    await refused.page.getByLabel('Search videos').fill('maia ngata');
    const notice = refused.page.getByRole('status').filter({ hasText: 'Too many name searches' });
    await expect
      .poll(() => notice.textContent())
      .toMatch(
        /^Too many name searches\. Please try again in \d+ minutes?\. Entry numbers \(like #47\) still work\.$/,
      );
    await refused.page.getByLabel('Search videos').fill('#47');
    await expect
      .poll(() =>
        refused.page
          .getByRole('region', { name: 'In the programmes' })
          .getByRole('heading', { name: 'Item 47: Firefly' })
          .isVisible(),
      )
      .toBe(true);
    await refused.context.close();
  });
});
