import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
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

export type { Browser, Page };
