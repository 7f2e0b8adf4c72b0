import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { hashSecret } from '@app/shared/buyer-library';
import { buyerSessions, onlineAlerts, programmeEntries, sales, searchMisses, syncRuns } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { createStorage } from '@app/shared/storage';
import type { BrowserContext, Page } from 'playwright-core';
import { axeViolations, describeAxe, describeNu, nuErrors, type AxeFinding } from '../support/a11y.ts';
import {
  createEnquiry,
  createEvent,
  createPortfolioItems,
  createPurchase,
  createShowcase,
  createVideo,
  SAMPLE_VIDEO_PATH,
} from '../support/factories.ts';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { expectErrorLogs } from '../support/guards.ts';
import { sitePicturesEnv } from '../support/media.ts';
import { appReady } from '../support/browser.ts';
import { useTestWorld } from '../support/world.ts';

// Every public page and every admin screen against the W3C Nu HTML checker (the HTML the server sends)
// and axe's WCAG 2.1 A and AA rules (the page in the browser, at desktop and phone widths), issue 33.
// A new route is covered by one line in `routes`.

expectErrorLogs(/The mail server refused the message/); // the jobs screen shows a failed job, seeded on purpose

const sample = await readFile(SAMPLE_VIDEO_PATH);
const buyerSecret = randomUUID();
const seeded = {
  showcaseSlug: 'regional-solos-2026',
  paidId: '',
  lyricalId: '',
  freeId: '',
  protectedId: '',
  sessionId: '',
  showcaseId: '',
};

/** Who looks at a page: a visitor (with a cart), or the owner (logged in, and signed in as a buyer). */
type Viewer = 'visitor' | 'owner';

interface Route {
  path: () => string;
  viewer: Viewer;
  /** Text on the page once its data has arrived (so the check sees the screen, not its skeleton). */
  ready?: string;
  /** A button that opens a dialog, pressed before the check (the dialog is then what is checked). */
  press?: string;
}

const visitor = (path: string | (() => string), ready?: string): Route => ({
  path: typeof path === 'string' ? () => path : path,
  viewer: 'visitor',
  ready,
});
const owner = (path: string | (() => string), ready?: string, press?: string): Route => ({
  path: typeof path === 'string' ? () => path : path,
  viewer: 'owner',
  ready,
  press,
});

const routes: Route[] = [
  visitor('/', 'Showing 12 of 15 images'),
  visitor('/dance-photographer'),
  visitor('/concert-photographer'),
  visitor('/performing-arts-photographer'),
  visitor('/videographer'),
  visitor('/performing-arts-videographer'),
  visitor('/dance-videographer'),
  visitor('/facebook-cover'),
  visitor('/videos', 'Mia Solo Jazz'),
  visitor(() => `/videos/${seeded.showcaseSlug}`, 'Buy all 2 videos'),
  visitor(() => `/video/${seeded.paidId}/purchase`, 'Mia Solo Jazz'),
  visitor(() => `/video/${seeded.protectedId}/purchase`, 'Verify Password'),
  visitor(() => `/video/${seeded.freeId}/download`, 'Junior Tap Trio'),
  visitor(() => `/video/${seeded.paidId}/download?session_id=${seeded.sessionId}`, 'Mia Solo Jazz'),
  visitor(
    () => `/video-purchase-success?session_id=${seeded.sessionId}&video_id=${seeded.paidId}`,
    'Watch & Download',
  ),
  visitor(() => `/video-payment-options?videoId=${seeded.paidId}`, 'Card Payment'),
  visitor('/video-payment-issue'),
  visitor('/privacy', 'What we keep'),
  visitor('/cart', 'Mia Solo Lyrical'),
  visitor('/my-videos', 'Email me a sign-in link'),
  visitor('/my-videos/sign-in#email=mere%40example.nz&token=unused', 'Open my videos'),
  visitor('/online-alerts/an-alert/confirm?t=not-a-token', 'Yes, e-mail me'),
  visitor('/no-such-page'),
  visitor('/admin', 'Admin Login'),
  owner('/my-videos', 'Signed in as mere@example.nz'),
  owner('/admin', 'Admin Dashboard'),
  owner('/admin/contacts', 'Kiri Tane'),
  owner('/admin/events', 'Canterbury Dance Festival'),
  owner('/admin/events', 'Canterbury Dance Festival', 'Create Event'),
  owner('/admin/videos', 'Mia Solo Jazz'),
  owner('/admin/videos', 'Mia Solo Jazz', 'Add Video'),
  owner('/admin/portfolio', 'Featured (hero slideshow)'),
  owner('/admin/sales', 'mere@example.nz'),
  owner('/admin/sales', 'mere@example.nz', 'Record offline payment'),
  owner('/admin/jobs', 'The mail server refused the message'),
  owner('/admin/sync', 'Canterbury Dance Festival'),
  owner('/admin/testimonials'),
  owner('/admin/gst', 'GST'),
  owner('/admin/removal-requests', 'Removal requests'),
  owner('/admin/audit-log', 'Audit log'),
  owner('/admin/programmes', 'Programmes'),
  owner('/admin/uploads', 'Competition upload'),
  owner(() => `/admin/season?showcase=${seeded.showcaseId}`, 'aroha smithh'),
  owner('/admin/search-misses', 'aroha smithh'),
  owner('/admin/waiting', 'Starlight Tango'),
];

const sizes = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const { api, browser } = useTestWorld({
  stripe: true,
  smtp: true,
  processes: { api: true },
  browser: true,
  // The jobs screen shows a failed job and its Retry.
  worker: {
    'contact-notification': () => {
      throw new UnrecoverableError('The mail server refused the message');
    },
  },
  env: ({ dir }) => sitePicturesEnv(dir),
  seed: async (env) => {
    const { db } = env.database;
    const storage = createStorage(env.config);
    const stored = async () => {
      const awsKey = `videos/${randomUUID()}.mp4`;
      await storage.put(awsKey, sample, 'video/mp4');
      return awsKey;
    };
    const imageUrl = '/api/images/portfolio/solo.jpg';
    await createPortfolioItems(db, 15, { alt: 'Soloist number', imageUrl });
    await createPortfolioItems(db, 2, { alt: 'Troupe', category: 'group', imageUrl });
    await createEvent(db, {
      title: 'Canterbury Dance Festival',
      jotformUrl: 'https://form.example/canterbury',
    });
    await createEvent(db, { title: 'Auckland Cup', location: 'Auckland' });
    const showcase = await createShowcase(db, {
      name: 'Regional Solos 2026',
      slug: seeded.showcaseSlug,
      bundlePriceCents: 3000,
    });
    const paid = await createVideo(db, {
      title: 'Mia Solo Jazz',
      priceCents: 1500,
      showcaseId: showcase.id,
      awsKey: await stored(),
    });
    const lyrical = await createVideo(db, {
      title: 'Mia Solo Lyrical',
      priceCents: 2000,
      showcaseId: showcase.id,
    });
    const free = await createVideo(db, { title: 'Junior Tap Trio', awsKey: await stored() });
    const locked = await createVideo(db, {
      title: 'Studio Duo Private',
      priceCents: 1200,
      passwordProtected: true,
      passwordHash: await hashPassword('duet2026'),
    });
    const purchase = await createPurchase(db, {
      videoId: paid.id,
      buyerName: 'Mere Parata',
      buyerEmail: 'mere@example.nz',
      amountCents: 1500,
      status: 'paid',
      paidAt: new Date(),
    });
    await db.insert(sales).values({
      videoId: paid.id,
      purchaseId: purchase.id,
      amountCents: 1500,
      currency: 'nzd',
      customerEmail: 'mere@example.nz',
      transactionId: `pi_${randomUUID()}`,
    });
    Object.assign(seeded, {
      paidId: paid.id,
      lyricalId: lyrical.id,
      freeId: free.id,
      protectedId: locked.id,
      sessionId: purchase.checkoutSessionId!,
      showcaseId: showcase.id,
    });
    // The season view's list of searches that found nothing (its table and its link to fix an entry).
    await db.insert(searchMisses).values({
      day: new Date().toISOString().slice(0, 10),
      source: 'library',
      showcaseId: showcase.id,
      query: 'aroha smithh',
      count: 3,
    });
    // A routine a parent waits for (the owner's "Waiting for videos" table).
    const [entry] = await db
      .insert(programmeEntries)
      .values({
        showcaseId: showcase.id,
        entryNumber: '47',
        entrySort: 47,
        section: 'Senior Duo',
        title: 'Starlight Tango',
      })
      .returning();
    await db
      .insert(onlineAlerts)
      .values({ email: 'kiri@example.nz', entryId: entry!.id, confirmedAt: new Date() });
    await createEnquiry(db);
    await db.insert(syncRuns).values({
      trigger: 'admin',
      status: 'succeeded',
      finishedAt: new Date(),
      result: { updatedCount: 1, unchanged: 0, unmatchedRows: [], invalidRows: [], ambiguousRows: [] },
    });
    await db.insert(buyerSessions).values({
      idHash: hashSecret(buyerSecret),
      email: 'mere@example.nz',
      expiresAt: new Date(Date.now() + 24 * 3600_000),
    });
  },
});

/** One context per viewer, reused for every page and width. */
async function contextFor(viewer: Viewer): Promise<BrowserContext> {
  // Reduced motion: no fades or slide changes under the checker (the colours are the same).
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  if (viewer === 'visitor') {
    const cart = [
      {
        kind: 'video',
        videoId: seeded.paidId,
        title: 'Mia Solo Jazz',
        showcaseId: null,
        showcaseName: 'Regional Solos 2026' as string | null,
        priceCents: 1500,
        previewUrl: null,
      },
    ];
    cart.push({ ...cart[0]!, videoId: seeded.lyricalId, title: 'Mia Solo Lyrical', priceCents: 2000 });
    await context.addInitScript({
      content: `localStorage.setItem('stagelight-cart', ${JSON.stringify(JSON.stringify(cart))});`,
    });
    return context;
  }
  const login = await context.request.post(`${api.url}/api/admin/login`, {
    data: { password: TEST_ADMIN_PASSWORD },
    headers: { Origin: api.url },
  });
  expect(login.status()).toBe(204);
  await context.addCookies([{ name: 'buyer_sid', value: buyerSecret, url: `${api.url}/api/my-videos` }]);
  return context;
}

async function show(page: Page, route: Route) {
  await page.goto(`${api.url}${route.path()}`);
  await appReady(page);
  if (route.ready) {
    await page.getByText(route.ready, { exact: false }).first().waitFor({ state: 'visible' });
  }
  if (route.press) {
    await page.getByRole('button', { name: route.press, exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'visible' });
  }
}

describe('every page for everyone', () => {
  it('sends HTML without Nu checker errors on every page', async () => {
    const documents: Record<string, string> = {};
    for (const route of routes) {
      const name = route.path();
      if (route.viewer !== 'visitor' || name in documents) continue;
      documents[name] = await (await fetch(`${api.url}${name}`)).text();
    }
    const errors = await nuErrors(documents);
    const report = Object.entries(errors)
      .filter(([, messages]) => messages.length > 0)
      .map(([name, messages]) => `${name} (${messages.length}):\n  ${messages.map(describeNu).join('\n  ')}`);
    const total = Object.values(errors).reduce((sum, messages) => sum + messages.length, 0);
    console.log(`Nu checker: ${Object.keys(errors).length} documents, ${total} errors`);
    expect(report).toEqual([]);
  }, 120_000);

  it('has no serious or critical axe violations (WCAG 2.1 A and AA) and reflows at 1280 and 390 px', async () => {
    // An enquiry whose e-mail fails: a failed job for the jobs screen.
    const enquiry = await fetch(`${api.url}/api/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Aroha',
        lastName: 'Smith',
        email: 'aroha@example.nz',
        eventType: 'recital',
        message: 'Do you film recitals?',
      }),
    });
    expect(enquiry.status).toBe(201);
    const findings: string[] = [];
    let checks = 0;
    for (const viewer of ['visitor', 'owner'] as const) {
      const context = await contextFor(viewer);
      const page = await context.newPage();
      for (const route of routes.filter((candidate) => candidate.viewer === viewer)) {
        await page.setViewportSize(sizes[0]!);
        await show(page, route);
        // The layout follows the width through CSS alone, so the phone width is the same page resized.
        for (const size of sizes) {
          await page.setViewportSize(size);
          // Checked as painted at that width: resize observers (a table that starts to scroll becomes
          // focusable) answer before the next frame, which a person sees before they can act.
          await page.evaluate(
            () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
          );
          const found: AxeFinding[] = await axeViolations(page);
          const label = `${viewer} ${route.path()}${route.press ? ` (${route.press})` : ''} @${size.width}`;
          checks++;
          findings.push(...found.map((finding) => `${label}: ${describeAxe(finding)}`));
          // WCAG 1.4.10 Reflow, which axe does not check: the page itself never scrolls sideways (a wide
          // table scrolls inside its own frame).
          const { page: wide, view } = await page.evaluate(() => ({
            page: document.documentElement.scrollWidth,
            view: document.documentElement.clientWidth,
          }));
          if (wide > view)
            findings.push(`${label}: the page is ${wide} px wide in a ${view} px view (reflow)`);
        }
      }
      await context.close();
    }
    console.log(
      `axe: ${checks} checks (${routes.length} screens at 2 widths), ${findings.length} with findings`,
    );
    expect(findings).toEqual([]);
    // Slow only when the shared machine is: about a second per check otherwise.
  }, 600_000);
});
