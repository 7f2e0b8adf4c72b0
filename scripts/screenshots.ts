// Screenshots of pages at desktop and phone widths, for looking at what we built:
//   node --import tsx scripts/screenshots.ts http://localhost:3000 / /videos
// PNGs go to data/screenshots/ (full page). With --admin <password> the pages are shot logged in.
import { mkdir } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { appReady, launchBrowser } from '../test/support/browser.ts';

const args = process.argv.slice(2);
const adminFlag = args.indexOf('--admin');
const adminPassword = adminFlag >= 0 ? args.splice(adminFlag, 2)[1] : undefined;
const [base = 'http://localhost:3000', ...paths] = args;
const widths = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
];
await mkdir('data/screenshots', { recursive: true });
const browser = await launchBrowser();
try {
  // One login for the whole run: the api allows 10 login attempts per address in 15 minutes.
  let storageState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
  if (adminPassword) {
    const login = await browser.newContext();
    const answer = await login.request.post(`${base}/api/admin/login`, {
      data: { password: adminPassword },
      headers: { Origin: base },
    });
    if (!answer.ok()) throw new Error(`The admin login answered ${answer.status()}`);
    storageState = await login.storageState();
    await login.close();
  }
  for (const path of paths.length ? paths : ['/']) {
    for (const size of widths) {
      const context = await browser.newContext({ viewport: size, deviceScaleFactor: 1, storageState });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') console.error(`[${size.name} ${path}] ${message.text()}`);
      });
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      // The app starts after the page has painted and loaded (web/start-after-paint.ts): wait until React
      // holds the page, then for what it fetched.
      await appReady(page);
      await page.waitForLoadState('networkidle');
      // Scroll through like a reader, so lazy images load and revealed blocks appear, then back to the top.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo({ top: y, behavior: 'instant' });
          await new Promise((resolve) => setTimeout(resolve, 60));
        }
        window.scrollTo({ top: 0, behavior: 'instant' });
      });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1200);
      const file = `data/screenshots/${path.replace(/[^a-z0-9]+/gi, '_') || 'home'}-${size.name}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.info(file);
      await context.close();
    }
  }
} finally {
  await browser.close();
}
