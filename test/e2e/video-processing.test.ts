import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStorage } from '@app/shared/storage';
import { createVideo } from '../support/factories.ts';
import { holdAppCode, openPage } from '../support/browser.ts';
import { makeTestVideo } from '../support/media.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { useTestWorld } from '../support/world.ts';

const { env, api, browser } = useTestWorld({
  processes: { api: true, worker: true },
  browser: true,
  timeout: 60_000,
});

describe('video processing seen by the owner and by a parent', () => {
  it("shows the owner the video queued or processing with its percentage, then ready; a phone plays the paid video's preview", async () => {
    const file = await makeTestVideo({ seconds: 60, rate: '10' });
    const video = await createVideo(env.database.db, {
      title: 'Junior Jazz Solo',
      priceCents: 2500,
      awsKey: 'videos/junior-jazz-solo.mp4',
    });
    await createStorage(env.config).put(video.awsKey, createReadStream(file), 'video/mp4');

    const owner = await openPage(browser);
    await owner.page.goto(`${api.url}/admin/videos`);
    await owner.page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await owner.page.getByRole('button', { name: 'Login' }).click();
    const card = owner.page.getByRole('listitem').filter({ hasText: 'Junior Jazz Solo' });
    await expect.poll(() => card.getByText('Not processed').isVisible(), { timeout: 15_000 }).toBe(true);
    await card.getByRole('button', { name: 'Process again' }).click();
    // The list asks again at once, then every 2 s, and this file is processed within one refresh on a
    // quiet machine: the owner sees it queued or processing (with its percentage), then ready. The
    // card's state is read every 100 ms; the worker's own figures are checked in the api's tests.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const state = /Queued for processing|Processing[^\n]*|Ready|Not processed/.exec(
            await card.innerText(),
          )?.[0];
          if (state) seen.add(state);
          return state;
        },
        { timeout: 120_000, interval: 100 },
      )
      .toBe('Ready');
    const busy = [...seen].filter((state) => state !== 'Ready' && state !== 'Not processed');
    expect(busy.length).toBeGreaterThan(0);
    for (const state of busy) expect(state).toMatch(/^(Queued for processing|Processing \d{1,3}%)$/);
    expect(await card.getByText('1 min 0 s · 1280×720').isVisible()).toBe(true);
    expect(owner.errors).toEqual([]);
    await owner.context.close();

    // A phone: touch, no mouse to hover with.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const parent = { page: await phone.newPage(), context: phone, errors: [] as string[] };
    parent.page.on('pageerror', (error) => parent.errors.push(error.message));
    parent.page.on('console', (message) => message.type() === 'error' && parent.errors.push(message.text()));
    // The tap lands on the server's copy of the page, before the app runs (its code held back until
    // then): the app starts at the tap and presses the button once it holds the page.
    const release = await holdAppCode(parent.page);
    await parent.page.goto(`${api.url}/videos`, { waitUntil: 'domcontentloaded' });
    const item = parent.page.getByRole('listitem').filter({ hasText: 'Junior Jazz Solo' });
    expect(await item.getByText('Preview', { exact: true }).isVisible()).toBe(true);
    // The poster frame is the picture: the owner set none.
    expect(await item.getByRole('img', { name: 'Preview of Junior Jazz Solo' }).getAttribute('src')).toMatch(
      /^\/api\/video-preview\/previews%2Fposters%2F/,
    );
    await item.getByRole('button', { name: 'Play a preview of Junior Jazz Solo' }).tap();
    expect(await parent.page.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();
    release();
    const clip = item.locator('video');
    await expect
      .poll(() => clip.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0.5);
    expect(
      await clip.evaluate((element: HTMLVideoElement) => ({
        muted: element.muted,
        inline: element.playsInline,
        paused: element.paused,
        height: element.videoHeight,
      })),
    ).toEqual({ muted: true, inline: true, paused: false, height: 480 });
    expect(parent.errors).toEqual([]);
    await parent.context.close();
  }, 240_000);
});
