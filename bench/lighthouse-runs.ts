// Shared by the benches that run Lighthouse (lighthouse.ts, catalogue.ts): Debian's chromium, and the
// median of several runs of one page (Lighthouse's own median run).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { CHROMIUM_PATH, QUIET_CHROMIUM_ARGS } from '../test/support/browser.ts';

export function launchChrome(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...QUIET_CHROMIUM_ARGS],
  });
}

/** One run's figures: performance score, and LCP, TBT and FCP in ms. */
export interface RunFigures {
  score: number;
  lcp: number;
  tbt: number;
  fcp: number;
}

/** "93 (LCP 1.92 s, TBT 140 ms)" for every run, in the order they ran. */
export const formatRuns = (runs: RunFigures[]) =>
  runs.map((run) => `${run.score} (LCP ${(run.lcp / 1000).toFixed(2)} s, TBT ${Math.round(run.tbt)} ms)`).join(', ');

/**
 * `runs` Lighthouse runs of `url` (mobile preset); the median run's report and every run's
 * performance score and figures. A run whose trace failed (NO_NAVSTART, now and then) is run again.
 */
export async function medianRun(
  port: number,
  url: string,
  runs: number,
): Promise<{ lhr: Result; report: string; scores: number[]; runs: RunFigures[] }> {
  const results: Array<{ lhr: Result; report: string }> = [];
  let failures = 0;
  while (results.length < runs) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const failure = result.lhr.runtimeError;
    if (failure) {
      if (++failures === runs) throw new Error(`Lighthouse could not measure ${url}: ${failure.code}`);
      console.warn(`Lighthouse could not measure ${url} (${failure.code}); running it again`);
      continue;
    }
    results.push({ lhr: result.lhr, report: String(result.report) });
  }
  const median = computeMedianRun(results.map((run) => run.lhr));
  const chosen = results.find((run) => run.lhr === median)!;
  const runFigures = results.map(({ lhr }) => ({
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? 0,
    fcp: lhr.audits['first-contentful-paint']?.numericValue ?? 0,
  }));
  return { ...chosen, scores: runFigures.map((run) => run.score), runs: runFigures };
}
