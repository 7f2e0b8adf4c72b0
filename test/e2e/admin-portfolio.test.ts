import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { openPage, type Page } from '../support/browser.ts';
import { SAMPLE_VIDEO_PATH } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';
import { videos } from '@app/shared/db';
import { masterKey } from '@app/shared/storage';

const {
  dir: files,
  env,
  api,
  browser,
} = useTestWorld({
  processes: { api: true, worker: true },
  browser: true,
  env: async ({ dir }) => {
    // The hero's fixed first slide, so the home page loads without a missing picture.
    await mkdir(path.join(dir, 'images/hero'), { recursive: true });
    await sharp({ create: { width: 960, height: 640, channels: 3, background: '#222244' } })
      .jpeg()
      .toFile(path.join(dir, 'images/hero/stage-hero.jpg'));
    return { IMAGES_DIR: path.join(dir, 'images'), IMAGE_CACHE_DIR: path.join(dir, 'cache') };
  },
});

/** A camera-like photo: GPS in its EXIF, as the owner's uploads have. */
async function photo(name: string, colour: string): Promise<string> {
  const file = path.join(files, name);
  await sharp({ create: { width: 1800, height: 1200, channels: 3, background: colour } })
    .withExif({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '43/1 31/1 12/1' } })
    .jpeg()
    .toFile(file);
  return file;
}

const row = (page: Page, name: string) => page.getByTestId('portfolio-row').filter({ hasText: name });

/** The gallery's alt texts, in order, for one tab. */
async function gallery(page: Page, tab: string): Promise<string[]> {
  await page.getByRole('tab', { name: tab }).click();
  const grid = page.locator('#portfolio-grid');
  await grid.getByText(/^Showing \d+ of \d+ images$/).waitFor();
  return grid
    .getByRole('button', { name: /^Open image: / })
    .evaluateAll((buttons) =>
      buttons.map((button) => button.getAttribute('aria-label')!.replace('Open image: ', '')),
    );
}

// Processing alone may be polled for 60 s on a busy machine: more than the default 30 s per test.
vi.setConfig({ testTimeout: 120_000 });

/** The owner's page on the admin dashboard. */
async function ownerPage() {
  const opened = await openPage(browser);
  await opened.page.goto(`${api.url}/admin`);
  await opened.page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
  await opened.page.getByRole('button', { name: 'Login' }).click();
  return opened;
}

describe('the owner manages the portfolio', () => {
  it('uploads three photos, writes alt text, sets categories, reorders and deletes; the gallery follows without layout shift', async () => {
    const { page, context, errors } = await ownerPage();
    await page.getByRole('link', { name: /Manage Portfolio/ }).click();
    await expect.poll(() => page.getByText('No photos yet. Upload the first ones.').isVisible()).toBe(true);

    await page
      .getByTestId('photo-files')
      .setInputFiles([
        await photo('first.jpg', '#aa3355'),
        await photo('second.jpg', '#33aa55'),
        await photo('third.jpg', '#3355aa'),
      ]);
    // Processed in the worker; new photos are drafts until they have alt text and are published.
    await expect.poll(() => page.getByText('Draft', { exact: true }).count(), { timeout: 60_000 }).toBe(3);
    expect(
      await row(page, 'first.jpg')
        .getByText(/Alt text is required before a photo is published/)
        .isVisible(),
    ).toBe(true);

    const details = [
      ['first.jpg', 'Soloist in red mid-leap'],
      ['second.jpg', 'Soloist in green bowing'],
      ['third.jpg', 'Troupe in blue in a line'],
    ] as const;
    for (const [name, alt] of details) {
      await row(page, name).getByLabel('Alt text').fill(alt);
      await row(page, name).getByRole('button', { name: 'Save', exact: true }).click();
      await expect
        .poll(() => row(page, name).getByRole('button', { name: 'Save', exact: true }).count())
        .toBe(0);
      await row(page, name).getByLabel('Published').click();
      // The box is ticked and the row's state reads Published, not Draft (the box's own label says
      // "Published" too, so the text alone would be found before the save).
      await expect.poll(() => row(page, name).getByLabel('Published').isChecked()).toBe(true);
      await expect.poll(() => row(page, name).getByText('Draft', { exact: true }).count()).toBe(0);
      await expect.poll(() => row(page, name).getByText('Published', { exact: true }).count()).toBe(2);
    }
    await row(page, 'third.jpg')
      .getByLabel(/^Category of/)
      .selectOption('group');
    await expect
      .poll(() =>
        page
          .locator('section', { has: page.getByRole('heading', { name: /Group Performances/ }) })
          .getByText('third.jpg')
          .isVisible(),
      )
      .toBe(true);

    // Second before first: order numbers, as for showcases.
    await row(page, 'second.jpg')
      .getByLabel(/^Order of/)
      .fill('0');
    await row(page, 'first.jpg')
      .getByLabel(/^Order of/)
      .fill('1');
    await row(page, 'first.jpg').getByRole('button', { name: 'Save order' }).click();
    await expect
      .poll(() => row(page, 'first.jpg').getByRole('button', { name: 'Save order' }).count())
      .toBe(0);
    await row(page, 'second.jpg').getByRole('button', { name: 'Save order' }).click();
    await expect
      .poll(() => row(page, 'second.jpg').getByRole('button', { name: 'Save order' }).count())
      .toBe(0);

    const visitor = await openPage(browser, { width: 1280, height: 800 });
    await visitor.page.addInitScript(() => {
      (window as unknown as { shift: number }).shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<
          PerformanceEntry & { value: number; hadRecentInput: boolean }
        >)
          if (!entry.hadRecentInput) (window as unknown as { shift: number }).shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await visitor.page.goto(`${api.url}/`);
    await visitor.page.locator('#portfolio').scrollIntoViewIfNeeded();
    expect(await gallery(visitor.page, 'Solo Performances')).toEqual([
      'Soloist in green bowing',
      'Soloist in red mid-leap',
    ]);
    expect(await gallery(visitor.page, 'Group Performances')).toEqual(['Troupe in blue in a line']);
    // The tiles' pictures come from the processed variants, with a srcset and the placeholder behind them.
    const tile = visitor.page.locator('#portfolio-grid img').first();
    await expect
      .poll(() => tile.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await tile.getAttribute('srcset')).toMatch(/\/api\/photos\/[0-9a-f-]{36}\?w=320 320w/);
    expect(await tile.evaluate((img) => getComputedStyle(img.parentElement!).backgroundImage)).toMatch(
      /^url\("data:image\/webp/,
    );
    // Lighthouse's CLS is these entries' sum: the tiles' boxes are reserved before their pictures arrive.
    expect(await visitor.page.evaluate(() => (window as unknown as { shift: number }).shift)).toBe(0);

    // Deleting asks first, and the gallery shows the change on the next visit at once.
    await row(page, 'first.jpg')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row(page, 'first.jpg').count()).toBe(0);
    await visitor.page.reload();
    await visitor.page.locator('#portfolio').scrollIntoViewIfNeeded();
    expect(await gallery(visitor.page, 'Solo Performances')).toEqual(['Soloist in green bowing']);

    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    await context.close();
  });

  it("uploads a video's preview picture through the same job, and the library shows its variants", async () => {
    // A playable file, so the video is listed once processed (an unplayable one is never shown).
    await mkdir(path.join(env.storageDir, 'videos'), { recursive: true });
    await copyFile(SAMPLE_VIDEO_PATH, path.join(env.storageDir, 'videos/poster-duet.mp4'));
    const { page, context, errors } = await ownerPage();
    await page.getByRole('link', { name: /Manage Portfolio/ }).waitFor();
    await page.goto(`${api.url}/admin/videos`);
    await page.getByRole('button', { name: 'Add Video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Poster Duet');
    await dialog.getByLabel('Description').fill('A duet with its own poster');
    await dialog.getByLabel('AWS key (storage path)').fill('videos/poster-duet.mp4');
    await dialog.getByLabel('Upload a preview image').setInputFiles(await photo('poster.jpg', '#aa7733'));
    const preview = dialog.getByLabel('Preview image URL (optional)');
    await expect
      .poll(() => preview.inputValue(), { timeout: 60_000 })
      .toMatch(/^\/api\/photos\/[0-9a-f-]{36}$/);
    const posterUrl = await preview.inputValue();
    await dialog.getByRole('button', { name: 'Save Video' }).click();
    await expect.poll(() => page.getByText('Video created successfully').isVisible()).toBe(true);
    const [video] = await env.database.db.select().from(videos);
    expect(video).toMatchObject({ title: 'Poster Duet', previewUrl: posterUrl });
    // The worker's master of the poster carries no location data.
    const master = await readFile(path.join(env.storageDir, masterKey(posterUrl.split('/').pop()!)));
    expect(await exifr.gps(master)).toBeUndefined();

    const visitor = await openPage(browser, { width: 1280, height: 800 });
    await visitor.page.goto(`${api.url}/videos`);
    const picture = visitor.page.getByRole('img', { name: 'Preview of Poster Duet' });
    await expect
      .poll(
        async () => {
          // Listed once the worker has processed the file; the page is read again until then.
          if ((await picture.count()) === 0) await visitor.page.reload();
          return picture
            .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)
            .catch(() => false);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    expect(await picture.getAttribute('srcset')).toContain(`${posterUrl}?w=320 320w`);
    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    await context.close();
  });
});
