import { describe, expect, it, vi } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { openPage, type Page } from '../support/browser.ts';
import { createPurchase, createShowcase, createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';
import { encryptAccessCode } from '../../api/src/features/privacy/showcase-access.ts';
import { importProgramme } from '../../api/src/features/programmes/programme-import.ts';
import { programmeCsv } from '../../scripts/seed/programme.ts';
import { eq } from 'drizzle-orm';
import { programmeDancers, showcases } from '@app/shared/db';

// Issue 28 in the browser: a family types a showcase's access code; a parent asks for a routine to be
// taken down and the owner hides it with one click.

const CODE = 'kowhai-2026';
let slug = '';
let lockedId = '';
let lockedTitle = '';
let routine = { id: '', title: '' };
/** A buyer's checkout session for the routine, paid before the takedown. */
let boughtSession = '';
/** A dancer of the open competition's programme. */
let dancerId = '';
/** A dancer of the showcase behind the access code. */
let lockedDancerId = '';
/** A paid video whose processing failed (a corrupt upload). */
let failed = { id: '', title: '' };

const { api, browser } = useTestWorld({
  processes: { api: true },
  browser: true,
  seed: async (env) => {
    const { db } = env.database;
    const locked = await createShowcase(db, {
      name: 'Kōwhai Studio Recital',
      slug: 'kowhai-recital',
      privacy: 'code',
      accessCodeEncrypted: encryptAccessCode({ config: env.config }, CODE),
    });
    slug = locked.slug;
    lockedId = locked.id;
    lockedTitle = (await createVideo(db, { title: 'Kōwhai Seniors Lyrical', showcaseId: locked.id })).title;
    const open = await createShowcase(db, { name: 'Regionals 2026', slug: 'regionals-2026' });
    const video = await createVideo(db, {
      title: 'Junior Jazz Group',
      showcaseId: open.id,
      priceCents: 1500,
    });
    routine = { id: video.id, title: video.title };
    const bought = await createPurchase(db, { videoId: video.id, status: 'paid', amountCents: 1500 });
    boughtSession = bought.checkoutSessionId!;
    const corrupt = await createVideo(db, {
      title: 'Corrupt Senior Solo',
      showcaseId: open.id,
      priceCents: 1500,
      processingState: 'failed',
      processingError: 'This file is not a video file that can be played.',
    });
    failed = { id: corrupt.id, title: corrupt.title };
    await db.update(showcases).set({ dancerNames: 'full' }).where(eq(showcases.id, open.id));
    const csv = programmeCsv([
      {
        entryNumber: '8',
        section: 'Junior Solo Hip Hop',
        title: 'Kapa',
        dancers: ['Kahu Tane'],
        studio: 'Studio 9',
      },
    ]);
    await importProgramme(db, open.id, Buffer.from(csv), {});
    dancerId = (await db.select({ id: programmeDancers.id }).from(programmeDancers))[0]!.id;
    const lockedCsv = programmeCsv([
      {
        entryNumber: '3',
        section: 'Senior Lyrical',
        title: 'Tides',
        dancers: ['Aria Kōwhai'],
        studio: 'Kōwhai',
      },
    ]);
    await importProgramme(db, locked.id, Buffer.from(lockedCsv), {});
    lockedDancerId = (
      await db
        .select({ id: programmeDancers.id })
        .from(programmeDancers)
        .where(eq(programmeDancers.showcaseId, locked.id))
    )[0]!.id;
  },
});

vi.setConfig({ testTimeout: 90_000 });

describe('a showcase behind an access code', () => {
  it('asks for the code, says so when it is wrong, and opens with the right one', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/videos/${slug}`);
    await page.getByRole('heading', { name: 'Private showcase' }).waitFor();
    expect(await page.getByText(lockedTitle).count()).toBe(0);

    await page.getByLabel('Access code').fill('wrong-code');
    await page.getByRole('button', { name: 'Open showcase' }).click();
    await page.getByText('That access code did not open this showcase. Check it with your studio.').waitFor();

    await page.getByLabel('Access code').fill(CODE.toUpperCase());
    await page.getByRole('button', { name: 'Open showcase' }).click();
    await page.getByText(lockedTitle).first().waitFor();
    // Remembered on this device: a fresh load opens at once.
    await page.reload();
    await page.getByText(lockedTitle).first().waitFor();
    expect(await page.getByLabel('Access code').count()).toBe(0);
    // The refused answers (403 before the code, 401 for the wrong one) and a showcase without a bundle
    // (404) are the browser's own console lines; nothing else.
    expect(errors.filter((error) => !/status of 40[134]\b/.test(error))).toEqual([]);
    await context.close();
  });
});

describe("a dancer's page behind an access code", () => {
  it('asks for the code, and shows her routines once it is typed', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/dancers/${lockedDancerId}`);
    // The page's preloaded answer was the 403; the answer after the code is asked for afresh.
    await page.getByRole('heading', { name: 'Private showcase' }).waitFor();
    await page.getByLabel('Access code').fill(CODE);
    await page.getByRole('button', { name: 'Open showcase' }).click();
    await page.getByRole('heading', { name: "Aria K.'s routines", level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Item 3: Tides' }).count()).toBe(1);
    expect(errors.filter((error) => !/status of 403\b/.test(error))).toEqual([]);
    await context.close();
  });
});

describe('a video whose processing failed', () => {
  it('says on its page that it is not available, and offers no way to buy it', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/video/${failed.id}/purchase`);
    await page.getByRole('heading', { name: failed.title }).waitFor();
    await page.getByText('This video is not available.').waitFor();
    expect(await page.getByRole('button', { name: /Buy Now|Add to cart/i }).count()).toBe(0);
    await page.goto(`${api.url}/videos`);
    await page.getByRole('heading', { name: 'Video Library' }).waitFor();
    await page.getByText(routine.title).first().waitFor();
    expect(await page.getByText(failed.title).count()).toBe(0);
    await context.close();
  });
});

/** A parent's request through the page's Request removal dialog, until the dialog confirms it. */
async function requestRemovalAsParent(page: Page, why: string, email: string) {
  await page.getByRole('button', { name: 'Request removal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request removal' });
  await dialog.getByLabel('Who is asking').selectOption('parent');
  await dialog.getByLabel('Why').fill(why);
  await dialog.getByLabel('Your e-mail').fill(email);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await dialog.getByText(/Your request has reached the studio owner/).waitFor();
}

/** The owner, logged in, on the removal requests screen. */
async function ownerAtRemovalRequests() {
  const owner = await openPage(browser);
  await owner.page.goto(`${api.url}/admin`);
  await owner.page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
  await owner.page.getByRole('button', { name: 'Login' }).click();
  await owner.page.getByRole('link', { name: /Removal requests/ }).click();
  return owner;
}

describe("a dancer's page", () => {
  it('takes a removal request, which the owner finds with a way to her entries', async () => {
    const visitor = await openPage(browser);
    await visitor.page.goto(`${api.url}/dancers/${dancerId}`);
    await visitor.page.getByRole('heading', { name: "Kahu Tane's routines", level: 1 }).waitFor();
    await requestRemovalAsParent(
      visitor.page,
      'Please take our son’s name off the programme.',
      'matua@example.nz',
    );
    await visitor.context.close();

    const owner = await ownerAtRemovalRequests();
    const request = owner.page.getByRole('listitem', {
      name: 'Request about Kahu Tane (dancer), Regionals 2026',
    });
    await request.getByText('Due in 7 days').waitFor();
    await request.getByRole('link', { name: /Open the dancer's entries/ }).click();
    await owner.page.getByRole('button', { name: 'Remove Kahu Tane from the programme' }).waitFor();
    // A public competition's QR code leads to its search as it is; a locked one's page warns the owner
    // that parents who scan will not find names there.
    const chosen = () =>
      owner.page
        .getByRole('combobox', { name: 'Competition' })
        .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent);
    await expect.poll(chosen).toBe('Regionals 2026');
    const warning = owner.page.getByText(/“find your dancer” finds names only in public showcases/);
    expect(await warning.count()).toBe(0);
    await owner.page.goto(`${api.url}/admin/programmes?showcase=${lockedId}`);
    await owner.page.getByText(/This showcase is behind an access code/).waitFor();
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
});

describe('a takedown', () => {
  it('goes from a parent’s request to the owner’s one click, and the routine is gone for visitors', async () => {
    // The buyer's download page before: the video is theirs to download.
    const buyer = await openPage(browser);
    const downloadPage = `${api.url}/video/${routine.id}/download?session_id=${encodeURIComponent(boughtSession)}`;
    await buyer.page.goto(downloadPage);
    await buyer.page.getByRole('heading', { name: routine.title }).waitFor();
    await buyer.page.getByRole('button', { name: 'Download' }).first().waitFor();

    const visitor = await openPage(browser);
    await visitor.page.goto(`${api.url}/video/${routine.id}/purchase`);
    await visitor.page.getByRole('heading', { name: routine.title }).waitFor();
    await requestRemovalAsParent(
      visitor.page,
      'Our daughter is in this group; we did not agree to it being sold.',
      'parent@example.nz',
    );

    const owner = await ownerAtRemovalRequests();
    const request = owner.page.getByRole('listitem', { name: `Request about ${routine.title}` });
    await request.getByText('Due in 7 days').waitFor();
    await request.getByText('Today', { exact: false }).first().waitFor();
    await request.getByRole('button', { name: 'Hide this routine' }).click();
    await request.getByText('Hidden and withdrawn').waitFor();
    await request.getByText('Closed').waitFor();

    await visitor.page.goto(`${api.url}/video/${routine.id}/purchase`);
    await visitor.page.getByRole('heading', { name: 'Video Not Found' }).waitFor();
    await visitor.page.goto(`${api.url}/videos`);
    await visitor.page.getByRole('heading', { name: 'Video Library' }).waitFor();
    expect(await visitor.page.getByText(routine.title).count()).toBe(0);

    // The buyer's download page after: the notice, no player and no download.
    await buyer.page.goto(downloadPage);
    await buyer.page.getByRole('heading', { name: 'This video has been withdrawn' }).waitFor();
    expect(await buyer.page.getByRole('button', { name: 'Download' }).count()).toBe(0);
    expect(await buyer.page.locator('video').count()).toBe(0);
    await buyer.context.close();

    await owner.page.getByRole('link', { name: 'Audit log' }).click();
    const entry = owner.page.getByRole('row', { name: new RegExp(routine.title) });
    await entry.getByText('Taken down').waitFor();
    await entry.getByText(/Removal request \(parent\): Our daughter/).waitFor();
    expect(owner.errors).toEqual([]);
    await owner.context.close();
    await visitor.context.close();
  });
});
