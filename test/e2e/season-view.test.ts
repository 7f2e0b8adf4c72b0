import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { searchMisses, videos } from '@app/shared/db';
import { writeProgramme } from '../../scripts/seed/programme.ts';
import { createPurchase, createShowcase, createVideo } from '../support/factories.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { useTestWorld } from '../support/world.ts';

// The owner's season view in the browser (issue 30, decision 034): a visitor's visit of a routine's page
// and a search that found nothing arrive in the owner's figures, and the failed search leads to the
// entry to fix.

const seeded = { showcaseId: '', videoId: '' };

const { api, browser, env } = useTestWorld({
  processes: { api: true },
  worker: true,
  browser: true,
  seed: async ({ database: { db } }) => {
    const showcase = await createShowcase(db, { name: 'Southern Stars 2026', dancerNames: 'full' });
    const entry = await writeProgramme(db, showcase.id, [
      {
        entryNumber: '1',
        section: 'Junior Solo Jazz',
        title: 'Firefly',
        dancers: ['Aroha Smith'],
        studio: 'Studio 42',
      },
      {
        entryNumber: '2',
        section: 'Junior Duo Tap',
        title: 'Rain',
        dancers: ['Mere Tane'],
        studio: 'Dance Co',
      },
    ]);
    const firefly = await createVideo(db, {
      title: 'Item 1: Firefly',
      showcaseId: showcase.id,
      entryId: entry.get('1')!,
      priceCents: 1500,
      processingState: 'ready',
    });
    await createPurchase(db, { videoId: firefly.id, amountCents: 1500, status: 'paid', paidAt: new Date() });
    Object.assign(seeded, { showcaseId: showcase.id, videoId: firefly.id });
  },
});

const visits = async () =>
  (
    await env.database.db.select({ visits: videos.visits }).from(videos).where(eq(videos.id, seeded.videoId))
  )[0]!.visits;

describe("the owner's season view", () => {
  it("counts a visit of a routine's page and a failed search, and leads from that search to the entry", async () => {
    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${api.url}/video/${seeded.videoId}/purchase`);
    await page.getByText('Item 1: Firefly').first().waitFor();
    await expect.poll(visits).toBe(1);
    // A misspelt name: the library has no video for it (names are not in its text); the programme,
    // forgiving the typo, leads to her routine.
    await page.goto(`${api.url}/videos?q=Arohaa+Smithh`);
    await page.getByText('No video titles match “Arohaa Smithh”').waitFor();
    await expect
      .poll(async () => (await env.database.db.select().from(searchMisses)).map((row) => row.query))
      .toContain('arohaa smithh');
    await visitor.close();

    const owner = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const login = await owner.request.post(`${api.url}/api/admin/login`, {
      data: { password: TEST_ADMIN_PASSWORD },
      headers: { Origin: api.url },
    });
    expect(login.status()).toBe(204);
    const admin = await owner.newPage();
    await admin.goto(`${api.url}/admin/season?showcase=${seeded.showcaseId}`);
    await admin.getByRole('heading', { name: 'Searches that found nothing' }).waitFor();
    // The figures are in tables for screen readers, beside the charts.
    const path = admin.getByRole('table', { name: 'From page visits to purchases' });
    await expect.poll(() => path.getByRole('row', { name: /Page visits/ }).textContent()).toContain('1');
    expect(await path.getByRole('row', { name: /Paid purchases/ }).textContent()).toContain('1');
    expect(await admin.getByRole('region', { name: 'Sales' }).textContent()).toContain('NZ$15.00');
    await admin.getByRole('link', { name: /Entry 1: Aroha Smith/ }).click();
    await admin.waitForURL(/\/admin\/programmes\?showcase=/);
    await admin.getByText('Entries (1)').waitFor();
    expect(await admin.getByRole('searchbox', { name: 'Search entries' }).inputValue()).toBe('Aroha Smith');
    await owner.close();
  });
});
