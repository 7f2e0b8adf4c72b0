import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The home page's first-load JavaScript budget, gzip (decision 015): bench/lighthouse.ts and smoke test. */
export const FIRST_LOAD_BUDGET_KB = 100;

/**
 * The scripts the home page loads before anything is lazily imported, in KB gzip to one decimal: the
 * starter in the built index.html and the entry and module preloads it asks for after the first paint
 * (web/start-after-paint.ts). `dist` is a client build's output folder (web/dist).
 */
export function firstLoadJavaScriptKb(dist: string): number {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const scripts = (text: string) =>
    [...text.matchAll(/["'`]\/(assets\/[^"'`]+\.js)["'`]/g)].map((match) => match[1]!);
  const starters = scripts(html);
  const files = new Set([
    ...starters,
    ...starters.flatMap((file) => scripts(readFileSync(path.join(dist, file), 'utf8'))),
  ]);
  const bytes = [...files].reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(dist, file))).length,
    0,
  );
  return Math.round((bytes / 1024) * 10) / 10;
}
