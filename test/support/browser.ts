import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The slow lane's one Chromium (shared-browser.ts), which every browser test connects to. */
    browserEndpoint: string;
  }
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium without its own traffic (updates, sync, first-run pages): for the tests and the benches. */
export const QUIET_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const CHROMIUM_ARGS = [
  ...QUIET_CHROMIUM_ARGS,
  // Pages reach this machine only: a request elsewhere fails, and the page's console says so.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

/**
 * Chromium for a test file: the slow lane's shared one (test/support/shared-browser.ts), connected to,
 * or a browser of its own outside vitest (scripts/screenshots.ts). Closing a connected browser closes
 * the file's contexts and leaves the shared one running.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = process.env.VITEST ? inject('browserEndpoint') : undefined;
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A fresh page that records console errors, uncaught exceptions and Content Security Policy violations
 * (a violation a script catches never reaches the console), so a test can assert there were none.
 */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; userAgent?: string } = {},
) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    ...(options.userAgent && { userAgent: options.userAgent }),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // A failed resource's message does not name it; its location does.
    const { url } = message.location();
    if (message.type() === 'error') errors.push(url ? `${message.text()} (${url})` : message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await context.exposeBinding('reportCspViolation', (_source, text: string) => errors.push(text));
  // Script text rather than a function, so this file type-checks without the DOM library (the api's
  // and worker's tests load it through world.ts).
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      void window.reportCspViolation(\`CSP \${event.violatedDirective} blocked \${event.blockedURI} in \${event.sourceFile}\`);
    });`,
  });
  return { page, context, errors };
}

/**
 * Resolves once React holds the page: the server's HTML paints first and the app starts after it
 * (web/start-after-paint.ts), so a click before then lands on a button nothing listens to yet.
 */
export const appReady = (page: Page) =>
  page.waitForFunction(
    // Typed by hand: this file is also compiled without the DOM's types (and the CSP forbids a string).
    () =>
      (globalThis as unknown as { document: { documentElement: { dataset: { app?: string } } } }).document
        .documentElement.dataset.app === 'ready',
  );

/**
 * Holds the app's code back (its entry script waits) until the returned function is called, so what the
 * test does first lands on the server's copy of the page, before the app runs.
 */
export async function holdAppCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The toast that says `text`. */
export const toastText = (page: Page, text: string) =>
  page.getByTestId('toast').getByText(text, { exact: true });

/** True once the page's <video> has loaded the stream's metadata (the signed link really serves the file). */
export const playerLoaded = (page: Page) =>
  page
    .locator('video')
    .evaluate((element) => {
      const video = element as unknown as { readyState: number; error: unknown };
      return video.readyState >= 1 && !video.error;
    })
    .catch(() => false);

/**
 * Presses Escape until `layer` (a dialog, a menu) is gone. Radix listens for Escape only once its layer is
 * the highest, a render after focus has already moved in, so on a slow machine the first press can land
 * before anyone listens. A layer that never closes on Escape still fails the poll.
 */
export async function escapeUntilClosed(page: Page, layer: Locator) {
  await expect
    .poll(async () => {
      await page.keyboard.press('Escape');
      return layer.count();
    })
    .toBe(0);
}

export type { Browser, Page };

/**
 * Where a finished download was saved: the shared browser runs in another process, so its own path is
 * not ours to read; the file is copied to this machine's temp folder.
 */
export async function downloadedFile(download: {
  saveAs(path: string): Promise<void>;
  suggestedFilename(): string;
}) {
  const file = path.join(os.tmpdir(), `stagelight-download-${randomUUID()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return file;
}
