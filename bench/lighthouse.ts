// Bench 5, page weight: Lighthouse (mobile preset, Debian chromium) on pages served by the production
// build, plus the first-load JavaScript of `/` (gzip) read from the built index.html. A dancer's page
// (the seed's Māia Ngata, decision 032) is noindex on purpose: Lighthouse's SEO category fails its
// "is-crawlable" audit for that, so its SEO is also shown without that one audit.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIRST_LOAD_BUDGET_KB, firstLoadJavaScriptKb } from '../test/support/first-load.ts';
import { startApi } from '../test/support/processes.ts';
import pg from 'pg';
import type { Result } from 'lighthouse';
import { formatRuns, launchChrome, medianRun } from './lighthouse-runs.ts';
import { prepareBenchEnv, printTable, root, verdict } from './lib.ts';

const pages = ['/', '/videos', '/dance-videographer'];

/** The SEO category's score without `is-crawlable` (weights as Lighthouse's own): what noindex costs aside. */
function seoWithoutCrawlable(lhr: Result): number {
  const refs = (lhr.categories.seo?.auditRefs ?? []).filter(
    (ref) => ref.id !== 'is-crawlable' && ref.weight > 0,
  );
  const weight = refs.reduce((sum, ref) => sum + ref.weight, 0);
  const scored = refs.reduce((sum, ref) => sum + ref.weight * (lhr.audits[ref.id]?.score ?? 0), 0);
  return Math.round((scored / weight) * 100);
}
/**
 * Runs per page, reported by Lighthouse's own median run (closest to the median first paint and time to
 * interactive): on this machine one page's score moves by 10 or more between runs of the same build.
 * Five, as Lighthouse's variability guide advises: the median of three still crossed 95 either way.
 */
const RUNS = 5;

const env = await prepareBenchEnv('lighthouse');
const client = new pg.Client({ connectionString: env.DATABASE_URL });
await client.connect();
const { rows: dancers } = await client.query<{ id: string }>(
  "select id from programme_dancers where search_key = 'maia ngata' limit 1",
);
await client.end();
const dancerPage = `/dancers/${dancers[0]!.id}`;
pages.push(dancerPage);
// `node --import tsx bench/lighthouse.ts /dancers` runs only the pages whose path starts so.
const only = process.argv[2];
// `/` alone is the home page (every path starts so).
if (only)
  pages.splice(
    0,
    pages.length,
    ...pages.filter((page) => page === only || (only !== '/' && page.startsWith(only))),
  );
const api = await startApi(env);
const chrome = await launchChrome();
const rows: Array<Record<string, string | number>> = [];
const reports = path.join(root, 'bench/results');
mkdirSync(reports, { recursive: true });
try {
  for (const page of pages) {
    const { lhr, report, scores, runs } = await medianRun(chrome.port, `${api.url}${page}`, RUNS);
    const name = page === dancerPage ? '/dancers/<Māia N.>' : page;
    console.info(`${name}, every run: ${formatRuns(runs)}`);
    // The median run's whole report, for reading why a figure is what it is (bench/results is not committed).
    writeFileSync(
      path.join(
        reports,
        `lighthouse-${page === '/' ? 'home' : page === dancerPage ? 'dancer' : page.slice(1).replaceAll('/', '-')}.json`,
      ),
      report,
    );
    const { categories, audits } = lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const lcp = (audits['largest-contentful-paint']?.numericValue ?? 0) / 1000;
    const crawlable = audits['is-crawlable']?.score === 1;
    rows.push({
      page: name,
      performance: `${score('performance')} (≥ 95: ${verdict(score('performance') >= 95)}; runs ${Math.min(...scores)}-${Math.max(...scores)})`,
      accessibility: `${score('accessibility')} (100: ${verdict(score('accessibility') === 100)})`,
      'best practices': `${score('best-practices')} (100: ${verdict(score('best-practices') === 100)})`,
      seo: crawlable
        ? `${score('seo')} (100: ${verdict(score('seo') === 100)})`
        : `${score('seo')}; ${seoWithoutCrawlable(lhr)} without is-crawlable (noindex on purpose; 100: ${verdict(seoWithoutCrawlable(lhr) === 100)})`,
      'LCP s': `${lcp.toFixed(2)} (≤ 2.0: ${verdict(lcp <= 2)})`,
      'oversized images':
        (audits['uses-responsive-images']?.details as { items?: unknown[] } | undefined)?.items?.length ?? 0,
    });
  }
  printTable(`Lighthouse, mobile preset: the median of ${RUNS} runs per page`, rows);
  const js = firstLoadJavaScriptKb(path.join(root, 'web/dist'));
  console.info(
    `First-load JavaScript of /: ${js} KB gzip (target ≤ ${FIRST_LOAD_BUDGET_KB} KB: ${verdict(js <= FIRST_LOAD_BUDGET_KB)})`,
  );
} finally {
  chrome.kill();
  await api.stop();
}
