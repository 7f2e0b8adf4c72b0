// Bench 5, page weight: Lighthouse (mobile preset, Debian chromium) on pages served by the production
// build, plus the first-load JavaScript of `/` (gzip) read from the built index.html.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startApi } from '../test/support/processes.ts';
import { CHROMIUM_PATH } from '../test/support/browser.ts';
import { prepareBenchEnv, printTable, root, verdict } from './lib.ts';

const pages = ['/', '/videos', '/dance-videographer'];

/** Scripts and module preloads the home page loads before anything is lazily imported. */
function firstLoadJavaScriptKb(): number {
  const dist = path.join(root, 'web/dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file))).length, 0);
  return Math.round((bytes / 1024) * 10) / 10;
}

const env = await prepareBenchEnv('lighthouse');
const api = await startApi(env);
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const rows: Array<Record<string, string | number>> = [];
const reports = path.join(root, 'bench/results');
mkdirSync(reports, { recursive: true });
try {
  for (const page of pages) {
    // Lighthouse now and then fails to record its trace (NO_NAVSTART): such a run has no scores, so
    // it is run again rather than reported as zeros.
    let result: Awaited<ReturnType<typeof lighthouse>>;
    for (let attempt = 1; ; attempt++) {
      result = await lighthouse(`${api.url}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
      });
      const failure = result?.lhr.runtimeError;
      if (!failure || attempt === 3) break;
      console.warn(`Lighthouse could not measure ${page} (${failure.code}); running it again`);
    }
    if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
    // The whole report, for reading why a figure is what it is (bench/results is not committed).
    writeFileSync(
      path.join(reports, `lighthouse-${page === '/' ? 'home' : page.slice(1).replaceAll('/', '-')}.json`),
      String(result.report),
    );
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const lcp = (audits['largest-contentful-paint']?.numericValue ?? 0) / 1000;
    rows.push({
      page,
      performance: `${score('performance')} (≥ 95: ${verdict(score('performance') >= 95)})`,
      accessibility: `${score('accessibility')} (100: ${verdict(score('accessibility') === 100)})`,
      'best practices': `${score('best-practices')} (100: ${verdict(score('best-practices') === 100)})`,
      seo: `${score('seo')} (100: ${verdict(score('seo') === 100)})`,
      'LCP s': `${lcp.toFixed(2)} (≤ 2.0: ${verdict(lcp <= 2)})`,
      'oversized images':
        (audits['uses-responsive-images']?.details as { items?: unknown[] } | undefined)?.items?.length ?? 0,
    });
  }
  printTable('Lighthouse, mobile preset', rows);
  const js = firstLoadJavaScriptKb();
  console.info(`First-load JavaScript of /: ${js} KB gzip (target ≤ 100 KB: ${verdict(js <= 100)})`);
} finally {
  chrome.kill();
  await api.stop();
}
