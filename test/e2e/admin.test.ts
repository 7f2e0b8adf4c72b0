import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { events, videos } from '@app/shared/db';
import { MULTIPART_THRESHOLD_BYTES } from '@app/shared/schemas';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import type { Locator, Request } from 'playwright-core';
import { openPage, type Page } from '../support/browser.ts';
import { createEnquiry } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

const {
  dir: files,
  env,
  api,
  browser,
} = useTestWorld({
  processes: { api: true },
  browser: true,
  seed: (env) => createEnquiry(env.database.db),
});

async function login(page: Page, password = TEST_ADMIN_PASSWORD) {
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}
/** Just over the multipart threshold: seven parts of 16 MB, the last one short. */
const BIG_FILE_BYTES = MULTIPART_THRESHOLD_BYTES + 1;

/**
 * Chooses a file of random bytes made in the page (the test's own file would cross the browser's
 * protocol, 10 s for 100 MB) in a file input, as a person choosing it does; resolves with its SHA-256.
 */
function chooseMadeFile(input: Locator, name: string, size: number): Promise<string> {
  return input.evaluate(
    async (element: HTMLInputElement, { name, size }) => {
      const bytes = new Uint8Array(size);
      // getRandomValues fills at most 64 kB at a time.
      for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
      const chosen = new DataTransfer();
      chosen.items.add(new File([bytes], name, { type: 'video/mp4' }));
      element.files = chosen.files;
      element.dispatchEvent(new Event('change', { bubbles: true }));
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    },
    { name, size },
  );
}
const toast = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });

describe('the admin area', () => {
  it('keeps every screen behind the login, and logs in and out on the server', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/admin/contacts`);
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Login' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Login' }).isDisabled()).toBe(true);

    await login(page, 'wrong password');
    await expect.poll(() => toast(page, 'Access Denied').isVisible()).toBe(true);
    expect(await page.getByLabel('Password').inputValue()).toBe('');

    await login(page);
    await expect.poll(() => toast(page, 'Login Successful').isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Contact Submissions' }).isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText('Kiri Tane').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'kiri@example.nz' }).getAttribute('href')).toBe(
      'mailto:kiri@example.nz',
    );
    expect(await page.getByText('Dance Competition', { exact: true }).isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Back to Admin' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Login' }).isVisible()).toBe(true);
    expect((await (await page.request.get(`${api.url}/api/admin/session`)).json()).authenticated).toBe(false);
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
    await context.close();
  });

  it('creates, edits and deletes an event, verifying each write', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/admin/events`);
    await login(page);
    await page.getByRole('button', { name: 'Create Event' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Otago Dance Champs');
    await dialog.getByLabel('Description').fill('All genres');
    await dialog.getByLabel('Date').fill('2027-06-12');
    await dialog.getByLabel('Location').fill('Dunedin');
    await dialog.getByRole('button', { name: 'Browse' }).click();
    await page.getByRole('button', { name: 'Built-in image 3' }).click();
    await expect.poll(() => dialog.getByText('Selected').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Save Event' }).click();
    await expect.poll(() => toast(page, 'Event created and verified successfully').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('12 June 2027').isVisible()).toBe(true);
    const [saved] = await env.database.db.select().from(events);
    expect(saved).toMatchObject({
      title: 'Otago Dance Champs',
      date: '2027-06-12',
      jotformUrl: null,
      imageUrl: '/api/images/attached_assets/event-03.jpg',
    });

    await page.getByRole('button', { name: 'Edit Otago Dance Champs' }).click();
    await page
      .getByRole('dialog')
      .getByLabel('Booking form URL (optional)')
      .fill('https://form.example/otago');
    await page.getByRole('dialog').getByRole('button', { name: 'Save Event' }).click();
    await expect.poll(() => toast(page, 'Event updated and verified successfully').isVisible()).toBe(true);

    // Visitors see the change on the home page's competitions list.
    await page.goto(`${api.url}/#competitions`);
    const card = page
      .locator('#competitions')
      .getByRole('listitem')
      .filter({ hasText: 'Otago Dance Champs' });
    await expect.poll(() => card.getByText('12 June 2027').isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: /Book Now - No Upfront Cost/ }).getAttribute('href')).toBe(
      'https://form.example/otago',
    );
    await page.goto(`${api.url}/admin/events`);

    await page.getByRole('button', { name: 'Delete Otago Dance Champs' }).click();
    expect(await page.getByText('Are you sure you want to delete this event?').isVisible()).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => toast(page, 'Event deleted and verified successfully').isVisible()).toBe(true);
    expect(await env.database.db.$count(events)).toBe(0);
    await context.close();
  });

  it('reports a write that the re-read list does not show', async () => {
    const { page, context } = await openPage(browser);
    // The server saves the event, but the list read back (stale, say) does not contain it.
    await page.route('**/api/admin/events?*', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({ events: [], page: 1, pageSize: 50, total: 0 }),
          })
        : route.continue(),
    );
    await page.goto(`${api.url}/admin/events`);
    await login(page);
    await page.getByRole('button', { name: 'Create Event' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Ghost Event');
    await dialog.getByLabel('Description').fill('Never listed');
    await dialog.getByLabel('Date').fill('2027-01-05');
    await dialog.getByLabel('Location').fill('Nelson');
    await dialog.getByLabel('Event image').fill('/api/images/attached_assets/event-01.jpg');
    await dialog.getByRole('button', { name: 'Save Event' }).click();
    await expect.poll(() => toast(page, 'Failed to create event').isVisible()).toBe(true);
    expect(
      await page
        .getByTestId('toast')
        .getByText('Event was not properly saved - verification failed')
        .isVisible(),
    ).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    await env.database.db.delete(events);
    await context.close();
  });

  it('creates a showcase and a protected video with an uploaded file, then deletes it', async () => {
    const clip = path.join(files, 'Solo Final.mp4');
    await writeFile(clip, Buffer.alloc(256 * 1024, 1));
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${api.url}/admin/videos`);
    await login(page);
    await expect.poll(() => page.getByText('No showcases created yet').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'New Showcase' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Winter Showcase');
    await page.getByRole('dialog').getByLabel('Description').fill('Winter recitals');
    await page.getByRole('dialog').getByRole('button', { name: 'Save Showcase' }).click();
    await expect.poll(() => toast(page, 'Showcase created successfully').isVisible()).toBe(true);

    const order = page.getByLabel('Order of Winter Showcase');
    await order.fill('4');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => toast(page, 'Showcase updated successfully').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Add Video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Solo Final');
    await dialog.getByLabel('Price in cents').fill('1200');
    await dialog.getByLabel('Description').fill('The final solo');
    await dialog.getByLabel('Tags (comma-separated)').fill('solo, , final ');
    await dialog.getByLabel('Showcase').selectOption({ label: 'Winter Showcase' });
    await dialog.locator('#video-file').setInputFiles(clip);
    await expect
      .poll(() => dialog.getByLabel('AWS key (storage path)').inputValue())
      .toMatch(/^videos\/.+-Solo-Final\.mp4$/);
    await dialog.getByLabel('Password Protected').check();
    await dialog.getByLabel('Password', { exact: true }).fill('pirouette');
    await dialog.getByRole('button', { name: 'Save Video' }).click();
    await expect.poll(() => toast(page, 'Video created successfully').isVisible()).toBe(true);

    const [video] = await env.database.db.select().from(videos);
    expect(video).toMatchObject({
      title: 'Solo Final',
      priceCents: 1200,
      tags: ['solo', 'final'],
      passwordProtected: true,
    });
    expect(video!.passwordHash).not.toContain('pirouette');
    expect(existsSync(path.join(env.storageDir, video!.awsKey))).toBe(true);
    await expect.poll(() => page.getByText('NZ$12.00').isVisible()).toBe(true);
    expect(await page.getByText('Protected', { exact: true }).isVisible()).toBe(true);

    // Editing keeps the password when its field is left empty; a blank price is free.
    await page.getByRole('button', { name: 'Edit Solo Final' }).click();
    const edit = page.getByRole('dialog');
    expect(await edit.getByLabel('AWS key (storage path)').count()).toBe(0);
    expect(await edit.getByLabel('Tags (comma-separated)').inputValue()).toBe('solo, final');
    await edit.getByLabel('Title').fill('Solo Final (edited)');
    await edit.getByLabel('Price in cents').fill('');
    await edit.getByRole('button', { name: 'Save Video' }).click();
    await expect.poll(() => toast(page, 'Video updated successfully').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Free', { exact: true }).isVisible()).toBe(true);
    const [edited] = await env.database.db.select().from(videos);
    expect(edited).toMatchObject({ title: 'Solo Final (edited)', priceCents: 0, passwordProtected: true });
    expect(edited!.passwordHash).toBe(video!.passwordHash);

    await page.getByRole('button', { name: 'Delete Solo Final (edited)' }).click();
    expect(
      await page
        .getByText('Are you sure you want to delete this video? This action cannot be undone.')
        .isVisible(),
    ).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => toast(page, 'Video deleted successfully').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No videos added').isVisible()).toBe(true);
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
    await context.close();
  });

  it(
    'sends a big file in parts, resumes a dropped connection from the stored parts, and cancels leaving nothing',
    { timeout: 120_000 },
    async () => {
      const { page, context, errors } = await openPage(browser);
      // The S3 requests the storage (the api, on local storage) was sent for this file, and those it answered.
      const sent: string[] = [];
      const answered: string[] = [];
      const name = (request: Request) => {
        const url = new URL(request.url());
        if (!url.pathname.startsWith('/api/admin/uploads/') || !url.pathname.includes('Gala-Final'))
          return null;
        return request.method() === 'PUT'
          ? `part ${url.searchParams.get('partNumber')}`
          : url.searchParams.get('action');
      };
      let drop = true;
      page.on('request', (request) => {
        const sending = name(request);
        if (!sending) return;
        sent.push(sending);
        // The connection drops on every attempt of part 3 (Uppy's own quick retries too) until the
        // upload is resumed, which starts by listing the parts stored. Routed from part 2 on: a routed
        // request is slower.
        if (sending === 'list' && sent.includes('part 3')) drop = false;
        if (sending === 'part 2' && drop)
          void page.route(/\/api\/admin\/uploads\/.*Gala-Final\.mp4\?.*partNumber=3/, (route) =>
            drop ? route.abort('connectionreset') : route.continue(),
          );
      });
      page.on('requestfinished', (request) => {
        const done = name(request);
        if (done) answered.push(done);
      });

      await page.goto(`${api.url}/admin/videos`);
      await login(page);
      await page.getByRole('button', { name: 'Add Video' }).click();
      const dialog = page.getByRole('dialog');
      const sha256 = await chooseMadeFile(dialog.locator('#video-file'), 'Gala Final.mp4', BIG_FILE_BYTES);
      await expect
        .poll(() => dialog.getByRole('progressbar', { name: 'Uploading Gala Final.mp4' }).isVisible())
        .toBe(true);
      await expect
        .poll(() => dialog.getByLabel('AWS key (storage path)').inputValue(), { timeout: 60_000 })
        .toMatch(/^videos\/.+-Gala-Final\.mp4$/);
      const key = await dialog.getByLabel('AWS key (storage path)').inputValue();
      const stored = await readFile(path.join(env.storageDir, key));
      expect(createHash('sha256').update(stored).digest('hex')).toBe(sha256);
      // Each part arrived once: 1 and 2 before the drop, 3 after the listing that resumed the upload.
      expect(answered).toEqual([
        'list',
        'part 1',
        'part 2',
        'list',
        'part 3',
        'part 4',
        'part 5',
        'part 6',
        'part 7',
        'complete',
      ]);
      expect(sent.filter((request) => request === 'part 3').length).toBeGreaterThanOrEqual(2);
      expect(await dialog.getByRole('progressbar').count()).toBe(0);
      expect(await toast(page, 'Upload failed').count()).toBe(0);

      // Chosen again and cancelled while part 2 is on its way: the upload is aborted in storage.
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      let release = () => {};
      await page.route(/\/api\/admin\/uploads\/.*Gala-Final\.mp4\?.*partNumber=2/, async (route) => {
        await new Promise<void>((resolve) => (release = resolve));
        await route.continue().catch(() => {});
      });
      sent.length = 0;
      await chooseMadeFile(dialog.locator('#video-file'), 'Gala Final.mp4', BIG_FILE_BYTES);
      await expect.poll(() => sent.includes('part 2'), { timeout: 30_000 }).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel upload' }).click();
      await expect.poll(() => dialog.getByRole('progressbar').count()).toBe(0);
      await expect.poll(() => readdir(path.join(env.storageDir, '.uploads'))).toEqual([]);
      release();
      expect(await dialog.getByLabel('AWS key (storage path)').inputValue()).toBe(key);
      expect(await toast(page, 'Upload failed').count()).toBe(0);
      // The dropped part's failures, as Chromium and Uppy report them; nothing else.
      expect(
        errors.filter((error) => !/ERR_CONNECTION_RESET|Network error during S3 request/.test(error)),
      ).toEqual([]);
      await context.close();
    },
  );

  it('bulk uploads several files as one video each, keeping the good ones when one fails', async () => {
    const good = path.join(files, 'Junior_Jazz-Group.mp4');
    const second = path.join(files, 'Tap Duo.mp4');
    const bad = path.join(files, 'notes.txt');
    await copyFile('scripts/seed/sample-performance.mp4', good);
    await writeFile(second, Buffer.alloc(64 * 1024, 2));
    await writeFile(bad, 'not a video');
    const { page, context } = await openPage(browser);
    await page.goto(`${api.url}/admin/videos`);
    await login(page);
    await page.getByRole('button', { name: 'Bulk Upload' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#bulk-files').setInputFiles([good, bad, second]);
    await dialog.getByRole('button', { name: 'Upload 3 videos' }).click();
    await expect.poll(() => toast(page, 'Bulk upload failed').isVisible()).toBe(true);
    expect(await dialog.getByText('Failed to get upload URL for notes.txt').isVisible()).toBe(true);
    expect(await dialog.getByText('Saved', { exact: true }).count()).toBe(2);
    expect(await dialog.getByRole('progressbar', { name: 'Tap Duo.mp4' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Junior Jazz Group' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Tap Duo' }).isVisible()).toBe(true);

    // A free uploaded video is in the library and plays from its storage key.
    const [uploaded] = await env.database.db
      .select()
      .from(videos)
      .where(eq(videos.title, 'Junior Jazz Group'));
    await page.goto(`${api.url}/videos`);
    await expect.poll(() => page.getByText('Junior Jazz Group').first().isVisible()).toBe(true);
    await page.goto(`${api.url}/video/${uploaded!.id}/download`);
    await expect
      .poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.readyState), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    await context.close();
  });
});
