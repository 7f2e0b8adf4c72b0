import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditLog, programmeEntries, uploadFiles, videos } from '@app/shared/db';
import { BULK_RELEASE_REASON } from '../../worker/src/jobs/process-video.ts';
import { axeViolations, describeAxe } from '../support/a11y.ts';
import { openPage } from '../support/browser.ts';
import { createShowcase } from '../support/factories.ts';
import { makeTestVideo } from '../support/media.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { useTestWorld } from '../support/world.ts';

// Issue 30's walk (decision 033): the owner drops 14 files on a competition: 12 named by entry number,
// one without a number (she matches it by hand) and one corrupt; midway the page is reloaded and the big
// file continues from its last part; after confirming, 13 videos are ready with their entries' titles
// and the corrupt one has failed, hidden, with its reason.

const { env, api, browser, dir } = useTestWorld({
  processes: { api: true, worker: true },
  browser: true,
  timeout: 60_000,
});
vi.setConfig({ testTimeout: 300_000 });
const MB = 1024 * 1024;

/** A valid MP4 made distinct (and as large as asked) by a trailing `free` box, which players skip. */
function withFreeBox(video: Buffer, bytes: number): Buffer {
  const box = Buffer.alloc(8 + bytes);
  box.writeUInt32BE(8 + bytes, 0);
  box.write('free', 4, 'latin1');
  randomBytes(Math.min(bytes, 64)).copy(box, 8);
  return Buffer.concat([video, box]);
}

describe('a competition uploaded in one go', () => {
  it('matches, survives a reload midway, and makes 13 videos ready and the corrupt one failed', async () => {
    const { db } = env.database;
    const showcase = await createShowcase(db, { name: 'Southern Champs 2027' });
    await db.insert(programmeEntries).values(
      Array.from({ length: 14 }, (_, index) => ({
        showcaseId: showcase.id,
        entryNumber: String(index + 1),
        entrySort: index + 1,
        section: 'Junior Solo Jazz',
        title: `Routine ${index + 1}`,
      })),
    );
    const video = await readFile(await makeTestVideo({ seconds: 2, width: 320, height: 240 }));
    const mp4 = (name: string, extra = 16) => ({
      name,
      mimeType: 'video/mp4',
      buffer: withFreeBox(video, extra),
    });
    const files = [
      // The big one: three 8 MB parts, so the reload lands between its parts.
      mp4('001 Aroha solo.mp4', 20 * MB),
      ...Array.from({ length: 11 }, (_, index) => mp4(`Item ${index + 2} - routine.mp4`)),
      mp4('Aroha warm-up.mp4'),
      // Starts like an MP4 (it passes the browser's check), but is not one.
      {
        name: '014 Kowhai.mp4',
        mimeType: 'video/mp4',
        buffer: Buffer.concat([video.subarray(0, 32), randomBytes(4096)]),
      },
    ];

    // Chosen from disk (paths), as she would: 21 MB of buffers through the browser's protocol is slow.
    await mkdir(path.join(dir, 'card'), { recursive: true });
    const paths = await Promise.all(
      files.map(async (file) => {
        const where = path.join(dir, 'card', file.name);
        await writeFile(where, file.buffer);
        return where;
      }),
    );

    const owner = await openPage(browser);
    const { page } = owner;
    // Every part PUT the storage was sent (file key and part number), and those it had stored (answered
    // 2xx) before the reload: only a part still in flight at the reload may be sent again.
    const partOf = (request: import('playwright-core').Request) => {
      const url = new URL(request.url());
      return request.method() === 'PUT' && url.pathname.startsWith('/api/admin/uploads/')
        ? `${decodeURIComponent(url.pathname)}#${url.searchParams.get('partNumber')}`
        : null;
    };
    const sent: string[] = [];
    const storedBeforeReload = new Set<string>();
    let reloaded = false;
    page.on('request', (request) => {
      const part = partOf(request);
      if (part) sent.push(part);
    });
    page.on('requestfinished', async (request) => {
      const part = partOf(request);
      if (part && !reloaded && (await request.response())?.ok()) storedBeforeReload.add(part);
    });
    // The big file's second part waits until the page has been reloaded.
    let held = false;
    await page.route(/\/api\/admin\/uploads\/.*001-Aroha-solo\.mp4\?.*partNumber=2/, async (route) => {
      held = true;
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      await route.continue().catch(() => {});
    });

    await page.goto(`${api.url}/admin`);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('link', { name: /Competition upload/ }).click();
    await page.getByLabel('Competition').selectOption(showcase.id);
    await page.getByRole('button', { name: 'Start an upload' }).click();
    await page.getByLabel(/Video files/).setInputFiles(paths);

    await expect.poll(() => page.getByText('13 matched · 1 unmatched').isVisible()).toBe(true);
    await expect.poll(() => held, { timeout: 30_000 }).toBe(true);
    const bigKey = sent.find((entry) => entry.includes('001-Aroha-solo'))!.replace(/#\d+$/, '');

    // Entry 13 has no file yet: she marks it as not filmed, and the mark outlives the reload.
    const notFilmed = page.getByLabel('13 · Routine 13: not filmed');
    await page.getByText('Entries without a file (1)').click();
    await notFilmed.click();
    await expect.poll(() => notFilmed.isChecked()).toBe(true);
    await expect
      .poll(() => page.getByText('Entries without a file (0), 1 not filmed').isVisible())
      .toBe(true);

    // Midway: the page is reloaded; the owner chooses the same files again and they continue.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    reloaded = true;
    const sentBeforeReload = sent.length;
    await page.reload();
    await page.getByLabel(/Video files/).setInputFiles(paths);
    // Filmed after all: her warm-up clip is entry 13's.
    await page.getByText('Entries without a file (0), 1 not filmed').click();
    expect(await notFilmed.isChecked()).toBe(true);
    await notFilmed.click();
    await expect.poll(() => notFilmed.isChecked()).toBe(false);
    await expect.poll(() => page.getByText('Entries without a file (1)').isVisible()).toBe(true);
    await expect
      .poll(
        async () => (await db.select().from(uploadFiles).where(eq(uploadFiles.state, 'uploading'))).length,
        {
          timeout: 60_000,
        },
      )
      .toBe(0);
    // No part stored before the reload was sent again after it; a part in flight then (the big file's
    // held part 2, and any small file's part a loaded machine had not finished) at most once more.
    const counts = new Map<string, number>();
    for (const entry of sent) counts.set(entry, (counts.get(entry) ?? 0) + 1);
    expect(storedBeforeReload.has(`${bigKey}#1`)).toBe(true);
    expect(sent.slice(sentBeforeReload).filter((part) => storedBeforeReload.has(part))).toEqual([]);
    expect([...counts].filter(([, count]) => count > 2)).toEqual([]);
    expect(counts.get(`${bigKey}#1`)).toBe(1);
    expect(counts.get(`${bigKey}#3`)).toBe(1);

    // The unnumbered file, matched by hand; then confirmed.
    await page.getByLabel('Entry of Aroha warm-up.mp4').selectOption({ label: '13 · Routine 13' });
    await expect.poll(() => page.getByText('14 matched · 0 unmatched').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Confirm and make the videos' }).click();

    await expect
      .poll(
        async () =>
          (await db.select({ state: videos.processingState }).from(videos)).filter(
            (row) => row.state === 'ready' || row.state === 'failed',
          ).length,
        { timeout: 240_000, interval: 500 },
      )
      .toBe(14);
    const made = await db
      .select({
        title: videos.title,
        state: videos.processingState,
        published: videos.published,
        error: videos.processingError,
      })
      .from(videos);
    expect(made.filter((row) => row.state === 'ready')).toHaveLength(13);
    expect(made.find((row) => row.title === 'Item 13: Routine 13')).toMatchObject({
      state: 'ready',
      published: true,
    });
    expect(made.find((row) => row.title === 'Item 1: Routine 1')).toMatchObject({
      state: 'ready',
      published: true,
    });
    expect(made.find((row) => row.title === 'Item 14: Routine 14')).toMatchObject({
      state: 'failed',
      published: false,
    });
    // Each went on sale with an audit entry, by the job, not the owner; the failed one has none.
    const audited = await db
      .select({
        actor: auditLog.actor,
        action: auditLog.action,
        name: auditLog.subjectName,
        reason: auditLog.reason,
      })
      .from(auditLog);
    expect(audited).toHaveLength(13);
    expect(audited).toContainEqual({
      actor: 'system',
      action: 'unhide',
      name: 'Item 13: Routine 13',
      reason: BULK_RELEASE_REASON,
    });
    expect(audited.map((entry) => entry.name)).not.toContain('Item 14: Routine 14');
    await expect.poll(() => page.getByText('Ready', { exact: true }).count()).toBe(13);
    expect(await page.getByText('Failed', { exact: true }).count()).toBe(1);

    // The review table, read by axe and fitting a phone's width without scrolling sideways.
    expect((await axeViolations(page)).map(describeAxe)).toEqual([]);
    await page.screenshot({ path: '/tmp/bulk-upload-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect((await axeViolations(page)).map(describeAxe)).toEqual([]);
    await page.screenshot({ path: '/tmp/bulk-upload-390.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The season view counts them: every entry has its file, 13 ready, the corrupt one failed.
    await page.goto(`${api.url}/admin/season?showcase=${showcase.id}`);
    const figure = (label: string) =>
      page
        .locator('dl > div')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd')
        .first();
    await expect.poll(() => figure('Ready').textContent()).toBe('13');
    expect(await figure('With a video').textContent()).toBe('14');
    expect(await figure('Without a video').textContent()).toBe('0');
    expect(await figure('Failed').textContent()).toBe('1');
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
});
