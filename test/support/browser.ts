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
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      void report(`CSP ${event.violatedDirective} blocked ${event.blockedURI} in ${event.sourceFile}`);
    });
  });
  return { page, context, errors };
}

export type { Browser, Page };
