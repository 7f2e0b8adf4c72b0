import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{api,worker,shared,scripts,test,web}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser and process tests poll for what a busy 2-core machine may take seconds to show.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    // Each file gets its own database and queue prefix, so files run in parallel safely.
    fileParallelism: true,
  },
});
