import { defineConfig } from 'vitest/config';

/**
 * Three lanes (docs/decisions/028): `unit` (pure functions of the web and shared code, no isolation),
 * `fast` (route, job and flow tests in process, each file its own database and queue prefix) and
 * `slow` (Chromium, the built api and worker as processes, drills, ffmpeg-heavy media jobs). `npm test` runs unit and fast
 * first and stops there when they fail; `npx vitest run` runs all three, slow last.
 */
// The media jobs' own tests run ffmpeg for half a minute each: in the slow lane their encoding fills
// the core its waiting files leave idle, instead of being the fast lane's longest poles.
const mediaJobFiles = ['worker/src/jobs/process-video.test.ts', 'worker/src/jobs/make-video-stream.test.ts'];
const slowFiles = ['test/e2e/**/*.test.ts', 'test/drills/**/*.test.ts', ...mediaJobFiles];
const unitFiles = ['web/src/**/*.test.{ts,tsx}', 'shared/src/**/*.test.ts'];
// Shared code whose tests talk to PostgreSQL or S3 is not pure: it runs in the fast lane.
const notPureFiles = [
  'shared/src/server/db/**/*.test.ts',
  'shared/src/server/storage/**/*.test.ts',
  'shared/src/server/gst/numbering.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser and process tests poll for what a busy 2-core machine may take seconds to show.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    // Each file gets its own database and queue prefix, so files run in parallel safely.
    fileParallelism: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          exclude: [...notPureFiles, '**/node_modules/**'],
          pool: 'threads',
          isolate: false,
          setupFiles: ['test/support/guards.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'fast',
          include: [
            '{api,worker,scripts}/**/*.test.ts',
            'test/{flows,support}/**/*.test.ts',
            ...notPureFiles,
          ],
          exclude: [...mediaJobFiles, '**/node_modules/**', '**/dist/**'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/guards.ts'],
          // Files still build their own world (database, queue prefix); what they share is the loaded
          // modules, so the api, AWS and Stripe graphs are imported once per worker, not once per file.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: slowFiles,
          // Two at once, the count CI has passed with. Three fill both cores and ran the lane in 288-309 s
          // instead of about 400, but each fresh-clone run with three still lost a browser test to a race
          // only load exposes (decision 028). SLOW_WORKERS=3 tries three.
          maxWorkers: Number(process.env.SLOW_WORKERS ?? 2),
          globalSetup: ['test/support/global-setup.ts', 'test/support/shared-browser.ts'],
          setupFiles: ['test/support/guards.ts'],
          // Isolated: a file's expectErrorLogs must reach the guard instance its hooks check.
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
